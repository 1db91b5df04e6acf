awk '/^func / { print FILENAME ": " $2 }' src/main.go src/util.go
awk 'END { print NR }' src/*.go
awk '/TODO/ { sub(/^[ \t]*\/\/ */, ""); print FILENAME ":" FNR ": " $0 }' src/main.go src/lib/strings.ts
find src -name '*.go' | sort | xargs awk 'FNR == 1 { files++ } { lines++ } END { print files, lines }'
awk -F'"' '/"version"/ { print $8 }' data/config.json
