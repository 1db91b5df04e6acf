cp data/log.txt log.txt
gzip log.txt
ls log.txt* 
zcat log.txt.gz | head -2
gunzip log.txt.gz
cat log.txt | wc -l
gzip -k log.txt && ls log.txt*
gzip -c data/words.txt > words.gz
gunzip -c words.gz | sort | uniq -c
gzip -d words.gz && cat words | wc -l
