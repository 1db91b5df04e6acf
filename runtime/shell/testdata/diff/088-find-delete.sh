find . -name '*_test.go' -delete
find . -name '*.go' | sort
