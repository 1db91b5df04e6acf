# Options of a nested bash, $- in bash's order, SHELLOPTS and BASHOPTS,
# braceexpand, vi/emacs and the shopt options of an interactive shell.
bash -o nounset -c 'echo $-'
bash -eu -c 'echo $-'
bash -e -c 'false; echo not reached'; echo rc=$?
bash +O nullglob -c 'echo foo *.none bar'
bash -O nullglob -c 'echo foo *.none bar'
bash -x -c 'echo $SHELLOPTS' 2>/dev/null
bash --norc --noprofile -c 'echo norc'
set -o pipefail -o nounset
echo "$SHELLOPTS"
set +o pipefail +o nounset
shopt -s extglob
[[ :$BASHOPTS: == *:extglob:* ]] && echo extglob in BASHOPTS
shopt -u extglob
[[ :$BASHOPTS: == *:extglob:* ]] || echo extglob not in BASHOPTS
set +B; echo {a,b}; set -B; echo {a,b}
set +h; bash -c 'set +h; echo $-'
set -o vi; shopt -o -p vi emacs; set -o emacs; shopt -o -p vi emacs
shopt -s autocd checkwinsize; echo $?; shopt -p autocd
set -o | grep -E '^(braceexpand|hashall|emacs|vi) '
