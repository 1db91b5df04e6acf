# needs: zip unzip
zip -q -r src.zip src
unzip -Z1 src.zip | sort
mkdir out && cd out && unzip -q ../src.zip && cd ..
find out -type f | sort; cat out/src/lib/math.ts
zip -q notes.zip notes/*.txt README.md
unzip -Z1 notes.zip
unzip -p notes.zip README.md
unzip -q -d extracted notes.zip; ls -R extracted
unzip -q -o notes.zip -d extracted; echo "overwrite: $?"
zip -q -j flat.zip src/lib/*.ts; unzip -Z1 flat.zip
zip -q -r nogo.zip src -x '*.go'; unzip -Z1 nogo.zip | sort
zip -q -d notes.zip README.md; unzip -Z1 notes.zip
unzip -q -t src.zip; echo "test: $?"
unzip -q nosuch.zip 2>/dev/null; echo "missing: $?"
rm -rf out extracted
