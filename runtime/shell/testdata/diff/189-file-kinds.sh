# needs: file
printf '#!/usr/bin/env bash\necho\n' > run.sh; file run.sh
file README.md data/users.csv data/config.json notes/empty.txt notes/no-newline.txt
file -b src
file --mime-type README.md data/config.json notes/empty.txt
gzip -k README.md; file -b --mime-type README.md.gz
