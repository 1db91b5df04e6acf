cat <<END > gen.txt
line one
value: $HOME
END
cat <<'RAW'
no $expansion here
RAW
wc -l gen.txt
