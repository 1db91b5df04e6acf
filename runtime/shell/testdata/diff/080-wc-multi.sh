wc -l src/*.go
wc -c data/numbers.txt data/words.txt
