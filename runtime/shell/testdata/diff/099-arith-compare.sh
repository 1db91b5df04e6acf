a=5
if (( a > 3 )); then echo big; fi
(( a == 5 )) && echo five
echo $(( a > 10 ? 1 : 0 ))
