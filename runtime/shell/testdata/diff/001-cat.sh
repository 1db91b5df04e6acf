cat README.md data/words.txt
cat -n data/words.txt
