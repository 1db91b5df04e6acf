tail -n +2 data/users.csv | sort -t, -k1,1 > users
printf '1,admin\n3,dev\n5,ops\n' > roles
join -t, users roles
join -t, -o 1.2,2.2 users roles
join -t, -v1 -o 1.2 users roles
