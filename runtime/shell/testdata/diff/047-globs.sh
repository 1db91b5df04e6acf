echo src/*.go
echo data/*.{txt,csv}
echo nomatch*
ls src/*_test.go
echo .h*
