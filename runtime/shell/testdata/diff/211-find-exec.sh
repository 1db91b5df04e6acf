find src -name '*.go' -exec wc -l {} \; | sort
find data -name '*.txt' -exec grep -l apple {} + | sort
find . -name '*.md' | xargs wc -l
find src -type f | xargs -n1 basename | sort
find . -newer README.md -name 'nothing'; echo "rc=$?"
