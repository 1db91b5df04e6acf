printf '1 alice\n2 bob\n3 carol\n' > names
printf '1 paris\n3 rome\n4 oslo\n' > cities
join names cities
join -a1 names cities
join -v2 names cities
join -o 1.2,2.2 names cities
join -a1 -a2 -e NONE -o 0,1.2,2.2 names cities
printf 'id,name\n1,x\n2,y\n' > a.csv; printf 'id,score\n1,10\n2,20\n' > b.csv
join -t, --header a.csv b.csv
join -t, -1 1 -2 1 a.csv b.csv 2>/dev/null | tail -2
