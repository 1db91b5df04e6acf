sed 's/apple/APPLE/' data/words.txt
sed 's/a/_/g' data/words.txt | head -3
sed -n '2,4p' data/words.txt
sed '/banana/d' data/words.txt
