mkdir -p build/out
for i in 1 2 3; do echo "part $i" > build/out/p$i.txt; done
cat build/out/*.txt
ls build/out | wc -l
