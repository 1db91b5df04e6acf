(cd src && ls)
pwd | grep -c /
cd data
ls | head -2
cd ..
ls -d data
cd nosuch 2>/dev/null || echo "no cd"
