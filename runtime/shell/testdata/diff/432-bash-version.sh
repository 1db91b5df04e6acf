# BASH_VERSION and BASH_VERSINFO say which bash this is; OSTYPE the system.
[ -n "$BASH_VERSION" ] && echo is bash
echo ${BASH_VERSINFO[0]} ${#BASH_VERSINFO[@]} $OSTYPE
case $BASH_VERSION in 5.*) echo five ;; esac
bash -c '[ -n "$BASH_VERSION" ] && echo nested is bash'
