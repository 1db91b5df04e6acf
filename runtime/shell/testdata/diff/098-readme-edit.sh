sed -i '1s/.*/# Renamed/' README.md
sed -i '$a\
Appended line' README.md
cat README.md
