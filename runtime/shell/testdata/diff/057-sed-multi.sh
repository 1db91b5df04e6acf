sed -n 'N;s/\n/+/p' data/numbers.txt
sed -n 'h;n;G;p' data/words.txt
sed '/apple/{s/apple/APPLE/;s/$/!/}' data/words.txt
sed 's/a/X/2' data/words.txt
