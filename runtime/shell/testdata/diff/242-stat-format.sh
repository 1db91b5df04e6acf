stat -c '%s %n' README.md data/words.txt
stat -c '%F' src README.md
stat -c '%a' src
stat --printf '%n:%s\n' data/numbers.txt
