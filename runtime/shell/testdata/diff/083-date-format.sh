date -d @0 +%Y-%m-%d
date -u -d '2024-03-05 10:20:30' '+%H:%M:%S %j'
date -d @86400 +%s
