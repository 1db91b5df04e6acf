printf 'a bb ccc\ndddd e f\n' | column -t
