tar czf s.tgz src; tar tzf s.tgz | sort
mkdir x; tar xzf s.tgz -C x; find x -type f | sort
tar cf n.tar notes data/numbers.txt; tar tf n.tar | sort
tar xf n.tar -O notes/no-newline.txt; echo
tar cf - src/lib | tar tf - | sort
rm -rf x
