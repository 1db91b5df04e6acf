find . -name '*.go' | sort
find . -type d | sort
find src -name '*.ts' -o -name '*.go' | sort
find . -maxdepth 1 -type f | sort
find . -empty | sort
find . -path ./src -prune -o -name '*.txt' -print | sort
