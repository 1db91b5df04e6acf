grep -rl --include='*.go' func . | sort
grep -r --exclude='*_test.go' -c func src | sort
