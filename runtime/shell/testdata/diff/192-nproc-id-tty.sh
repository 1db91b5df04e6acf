nproc >/dev/null && echo "nproc ok"
[ "$(id -u)" = "$(id -u "$(id -un)")" ] && echo same-uid
id | grep -o 'uid=[0-9]*' | sed 's/[0-9]*$/N/'
[ "$(id -un)" = "$(whoami)" ] && echo whoami-agrees
groups >/dev/null && echo groups-ok
tty -s; echo "tty: $?"
