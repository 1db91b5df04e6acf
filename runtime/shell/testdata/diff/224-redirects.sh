echo out > o.txt; echo more >> o.txt; cat o.txt
ls nosuch 2> e.txt; wc -l < e.txt
{ echo a; echo b; } > g.txt; cat g.txt
echo both &> b.txt; cat b.txt
cat <<EOF > h.txt
line $((1+1))
EOF
cat h.txt
cat <<'EOF'
no $expansion
EOF
