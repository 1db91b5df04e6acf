# needs: file
printf 'plain\n' > p.txt; file p.txt
printf '{"a":[1,2]}\n' > j.json; file j.json
printf 'x,y\n1,2\n3,4\n' > c.csv; file c.csv
printf '#!/bin/sh\n' > s; chmod +x s; file s
