touch -d '2020-02-29 12:00:00' leap; stat -c '%y' leap
touch -t 200001010000 y2k; stat -c '%Y' y2k
touch -r leap copy; stat -c '%y' copy
touch -c nothere; ls nothere 2>&1 | head -1
touch -d '2021-06-01' day; stat -c '%y' day
touch -t 202402301200 bad 2>/dev/null; echo "bad: $?"
