grep '^2024-01-0[12]' data/log.txt
grep 'e$' data/words.txt
grep -E '^[a-c]' data/words.txt
grep '\(an\)\{2\}' data/words.txt
grep -E '(an){2}' data/words.txt
grep 'a.p' data/words.txt
grep -x apple data/words.txt | head -1
