install -m 0700 README.md a; stat -c %a a
install -m u=rw,go=r README.md b; stat -c %a b
install -d d1 d2; ls -d d1 d2
