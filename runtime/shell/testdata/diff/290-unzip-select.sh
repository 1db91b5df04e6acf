# needs: zip unzip
zip -q -r all.zip src data
unzip -Z1 all.zip 'src/*' | sort
mkdir only; cd only; unzip -q ../all.zip 'data/*.txt'; find . -type f | sort; cd ..
unzip -q -o all.zip -x 'src/*' -d ex; find ex -type f | sort
