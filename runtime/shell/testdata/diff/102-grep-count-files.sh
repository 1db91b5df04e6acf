grep -c TODO README.md src/main.go src/util.go
grep -rc TODO src | sort
