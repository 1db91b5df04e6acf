date -u -d @1700000000 '+%Y-%m-%dT%H:%M:%SZ'
date -u -d @1700000000 +%s
date -u -d '2024-02-29 00:00' '+%u %U %d %m %y'
date -u -d @0 '+%D %T'
