install -m 644 README.md inst.md; stat -c '%a %n' inst.md
install -d -m 750 a/b/c; stat -c '%a' a/b/c
install -D src/main.go deep/x/main.go; stat -c '%a' deep/x/main.go; cat deep/x/main.go | head -1
mkdir bin; install src/util.go src/main.go bin; ls bin
install -v -m 600 data/numbers.txt n.txt
install -t bin data/words.txt; ls bin
