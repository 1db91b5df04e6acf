timeout 5 true; echo "t: $?"
timeout 5 false; echo "f: $?"
timeout 0 echo "no limit"; echo "zero: $?"
timeout 0.2s sleep 3; echo "s suffix: $?"
timeout -k 1 0.2 sleep 3; echo "kill-after: $?"
timeout 1m echo minute
timeout abc echo x 2>/dev/null; echo "bad: $?"
