find src ! -name '*.go' -type f | sort
find . -type f \( -name '*.ts' -o -name '*.md' \) | sort
find . -empty | sort
