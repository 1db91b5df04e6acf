cp README.md r2.md; cmp README.md r2.md && echo copied
cp -r src src2; find src2 | sort
mv r2.md r3.md; ls r*.md
mkdir dest; mv r3.md dest/; ls dest
cp -n README.md dest/r3.md; cat dest/r3.md | head -1
mv src2 moved; ls moved | head -2
