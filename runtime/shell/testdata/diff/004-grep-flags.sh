grep -c apple data/words.txt
grep -v apple data/words.txt
grep -i todo README.md
grep -l TODO -r src | sort
grep -w add src/util.go
grep -o '[0-9]\+' data/numbers.txt | head -2
grep -E 'ERROR|WARN' data/log.txt
grep -F '.' data/config.json | wc -l
