fold -w 12 README.md
fold -sw 12 README.md | wc -l
