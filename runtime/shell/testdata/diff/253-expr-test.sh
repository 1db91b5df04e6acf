expr 3 + 4; expr 10 / 3; expr 10 % 3
expr length "hello"
expr substr "hello" 2 3
expr "abc" : 'a\(.*\)'
expr 5 \> 3; expr 2 = 3
