date -u -d @0 +%Y-%m-%d
date -u -d '2024-03-01 10:20:30' '+%H:%M:%S %j %a %b'
date -u -d @86400 +%s
date -u -d '2024-01-31' +%A
