head -n 1 data/words.txt data/numbers.txt
tail -n 1 data/words.txt data/numbers.txt
