false | true; echo "last: $?"
set -o pipefail; false | true; echo "pipefail: $?"; set +o pipefail
echo hi | tee t.txt | tr a-z A-Z; cat t.txt
seq 5 | paste -sd+ | bc 2>/dev/null || seq 5 | awk '{s+=$1} END {print s}'
! false && echo negated
