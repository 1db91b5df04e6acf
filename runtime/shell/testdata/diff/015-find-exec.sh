find src -name '*.go' -exec wc -l {} \; | sort
find src -name '*.ts' -exec cat {} + | wc -l
