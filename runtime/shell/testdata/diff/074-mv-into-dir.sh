mkdir archive
mv data/*.txt archive/
ls archive data
