cat data/words.txt | sort | uniq -c | sort -rn | awk '{print $2": "$1}' | head -3
find . -name '*.go' | xargs grep -l func | sort | while read f; do echo "$(wc -l < $f) $f"; done
ls data | grep -v json | tr a-z A-Z | paste -sd,
