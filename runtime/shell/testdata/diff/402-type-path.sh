# type, command -v and which follow PATH: -a lists every file (relative
# PATH entries stay relative), -P files only, -p a file's path only, -f
# skips functions, -t the kind; a workspace file with an execute bit
# counts, one without does not.
mkdir -p bin2; printf '#!/bin/sh\necho mine\n' > bin2/tool; chmod +x bin2/tool
type -t cd if tool; echo "status=$?"
PATH="bin2:$PATH"
type tool; type -t tool; type -p tool; type -P tool
command -v tool; which tool
PATH="bin2:/usr/bin:/bin"
printf '#!/bin/sh\n' > bin2/sort; chmod +x bin2/sort
type -a sort; type -ap sort; type -P sort; which -a sort
type -ap cd; echo "status=$?"
type -P cd ls; echo "status=$?"
type -p FOO; echo "status=$?"
type -x ls; echo "status=$?"
