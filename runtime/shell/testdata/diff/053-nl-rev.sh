nl data/words.txt
echo abc | rev
rev data/words.txt | head -2
