mkdir -p proj/docs && echo "# docs" > proj/docs/index.md && cp -r src proj/
ln -s docs/index.md proj/link.md
tar czf proj.tgz proj
rm -r proj
tar xzf proj.tgz
find proj | sort
cat proj/link.md
gzip -c proj.tgz | gunzip | tar tz | sort | head -3
