# needs: zip unzip
zip -q a.zip README.md; zip -q a.zip data/words.txt; unzip -Z1 a.zip
echo new > README.md; zip -q a.zip README.md; unzip -p a.zip README.md
