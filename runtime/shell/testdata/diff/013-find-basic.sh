find . -name '*.go' | sort
find src -type d | sort
find . -type f -name '*.ts' | sort
