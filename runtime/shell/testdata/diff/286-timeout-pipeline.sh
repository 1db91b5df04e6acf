timeout 0.3 bash -c 'yes > /dev/null'; echo "yes stopped: $?"
timeout 5 bash -c 'echo inner; exit 0'; echo "rc=$?"
timeout 0.3 sleep 2 || echo "failed with $?"
