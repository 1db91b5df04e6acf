# A script in a directory of PATH runs by its name, as bash finds it.
mkdir -p bin
printf '#!/bin/sh\necho "tool: $*"\n' > bin/tool.sh
chmod +x bin/tool.sh
PATH=$PWD/bin:$PATH
tool.sh a 'b c'
out=$(tool.sh x)
echo "captured: $out"
