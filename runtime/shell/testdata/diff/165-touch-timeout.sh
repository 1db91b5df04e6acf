touch -t 202401021504.05 a; stat -c '%y' a
touch -t 01021504 b; stat -c '%y' b | cut -c6-
touch -t 9901021504 c; stat -c '%y' c
touch -d '2023-05-06 07:08:09' d; stat -c '%y' d
touch -r a e; stat -c '%y' e
touch -d @0 f; stat -c '%Y' f
touch -t 13011200 g; echo "bad: $?"
timeout 0.3 sleep 5; echo "timed out: $?"
timeout 5 echo quick; echo "quick: $?"
timeout -s KILL 0.3 sleep 5; echo "kill: $?"
timeout --preserve-status 0.3 sleep 5; echo "preserve: $?"
timeout 0.3 bash -c 'while :; do :; done'; echo "loop: $?"
sleep 1 | timeout 0.3 cat; echo "blocked read: $?"
timeout 5 bash -c 'exit 3'; echo "status: $?"
timeout 5 nosuchcmd 2>/dev/null; echo "missing: $?"
timeout; echo "usage: $?"
