find . -name '*.go' | sort | xargs grep -l main
find . -name '*.csv' -print0 | xargs -0 wc -l
