sort data/words.txt | uniq
sort data/words.txt | uniq -c
sort data/words.txt | uniq -d
sort data/words.txt | uniq -u
