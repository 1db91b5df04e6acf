# A command whose reader left dies of SIGPIPE (141 in PIPESTATUS terms,
# seen through pipefail); xargs stops when its command does (125).
set -o pipefail
seq 1 1000000000000 | head -1; echo "rc=$?"
yes | head -n 10000000000 | head -1; echo "rc=$?"
seq 1000 | xargs -n 1 echo 2>/dev/null | head -2; echo "rc=$?"
cat /dev/zero | head -c 5 | od -An -c; echo "rc=$?"
seq 100000 | sort -n | head -1; echo "rc=$?"
