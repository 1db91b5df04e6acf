printf '#!/bin/sh\necho hi\n' > s.sh
chmod +x s.sh; stat -c '%a %n' s.sh
chmod 600 s.sh; stat -c '%a' s.sh
chmod u+x,g+r s.sh; stat -c '%a' s.sh
chmod a=r s.sh; stat -c '%a' s.sh
chmod go-rwx,u=rwx s.sh; stat -c '%a' s.sh
chmod -v 644 s.sh
chmod -c 644 s.sh; echo "no change: $?"
chmod g=u s.sh; stat -c '%a' s.sh
chmod -w s.sh; stat -c '%a' s.sh
chmod 755 src; chmod -R a+X src; stat -c '%a %n' src src/main.go src/lib
chmod -R 700 src; find src | sort | xargs stat -c '%a %n'
chmod --reference=README.md s.sh; stat -c '%a' s.sh
chmod 999 s.sh; echo "bad: $?"
chmod 644 nosuch 2>/dev/null; echo "missing: $?"
