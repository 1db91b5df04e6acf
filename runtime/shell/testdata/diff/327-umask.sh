# umask: the mask in octal, -S and -p, set from octal or a symbolic mode (bash
# 5.2's parse), errors and their status, and the mode of files a redirect creates.
umask; umask -S; umask -p
umask 0002; echo one > um1; umask 0022; echo two > um2; stat -c '%a' um1 um2
umask g-w,o-w; umask; umask u=rwx,g=,o=; umask; umask a+x; umask
umask b=rwx 2>/dev/null; echo "st=$?"; umask 999 2>/dev/null; echo "st=$?"; umask -x 2>/dev/null; echo "st=$?"; umask; umask '' 2>/dev/null; echo "st=$?"
rm -f um1 um2
