# getopts as bash runs it: clusters, attached and separate arguments,
# normal and silent modes for a bad option or a missing argument, "--",
# the end (name '?', OPTIND at the first operand, or past the last
# argument when OPTIND is beyond it), explicit operands, an invalid name.
set -- -ab -c foo -dbar x y
while getopts 'abc:d:' o; do echo "o=$o OPTARG=${OPTARG-unset} OPTIND=$OPTIND"; done
echo "after OPTARG=${OPTARG-unset}"
echo "end o=$o OPTIND=$OPTIND"; shift $((OPTIND - 1)); echo "rest: $*"
OPTIND=1; set -- -z -c
while getopts 'c:' o 2>/dev/null; do echo "o=$o OPTARG=${OPTARG-unset} OPTIND=$OPTIND"; done
OPTIND=1
while getopts ':c:' o; do echo "o=$o OPTARG=${OPTARG-unset} OPTIND=$OPTIND"; done
OPTIND=1; set -- -a -- -c operand
while getopts 'a' o; do echo "o=$o"; done; echo "OPTIND=$OPTIND"
set -- -f
while getopts 'f:' o 2>/dev/null; do echo "o=$o"; done; echo "OPTIND=$OPTIND"
set --
while getopts 'f' o; do echo "o=$o"; done; echo "OPTIND=$OPTIND"
OPTIND=1; getopts 'xy' o -y -x; echo "status=$? o=$o OPTIND=$OPTIND"
OPTIND=1; set -- -c foo -h; getopts 'hc:' opt- 2>/dev/null
echo "status=$? opt=$opt OPTARG=$OPTARG OPTIND=$OPTIND"
f() { local OPTIND=1 o; while getopts 'q' o; do echo "f o=$o"; done; echo "f OPTIND=$OPTIND"; }
f -q -q arg
