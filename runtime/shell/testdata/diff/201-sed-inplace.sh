cp data/words.txt w.txt
sed -i 's/apple/pear/' w.txt; cat w.txt
sed -i.bak '1i header' w.txt; head -2 w.txt; ls w.txt*
sed -i '$a footer' w.txt; tail -1 w.txt
sed -n '$=' w.txt
