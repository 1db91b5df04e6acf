sort data/words.txt | uniq -c
sort data/words.txt | uniq -d
sort data/words.txt | uniq -u
sort data/words.txt | uniq -c | sort -rn | head -1
printf 'a\nA\na\n' | uniq -i
