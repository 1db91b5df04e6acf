cp nosuch x 2>/dev/null; echo "rc=$?"
cp src dst 2>/dev/null; echo "rc=$?"
cp -r src dst; ls dst | wc -l
