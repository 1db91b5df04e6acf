expr 2 + 3
expr 10 / 3
expr length hello
n=$(expr 4 \* 5); echo $n
