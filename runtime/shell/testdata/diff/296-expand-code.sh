printf 'if x:\n\treturn 1\n\t\tdeep\n' > code.py
expand -t 4 code.py
expand -t 4 code.py | unexpand -t 4 --first-only | cat -A
