numfmt --to=si 0 1 999 1000 12345 123456789
numfmt --to=iec 1023 1024 1536 1073741824
numfmt --from=iec --to=si 1M
numfmt --from=si --to=iec 1G
printf '1000\n2000000\n' | numfmt --to=si
echo "a,4096,b" | numfmt -d , --field=2 --to=iec
numfmt --to=iec --suffix=B 2048
numfmt --padding=-8 123; echo "|"
