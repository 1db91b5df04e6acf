numfmt --to=si 1000 1500000 999
numfmt --to=iec 1024 1048576 2000
numfmt --to=iec-i 4096
numfmt --from=si 1K 2.5M
numfmt --from=iec 1K 1G
numfmt --from=auto 1Ki 1K
echo "size 2048" | numfmt --field=2 --to=iec
printf 'name bytes\nx 123456\ny 99\n' | numfmt --header --field=2 --to=si
numfmt --to=si --suffix=B 5000000
numfmt --padding=8 42
numfmt abc; echo "bad: $?"
factor 12 97 100 1 360
echo 1001 65536 | factor
factor 600851475143
factor 18446744073709551617
