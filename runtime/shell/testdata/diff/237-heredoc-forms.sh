name=World
cat <<EOF
Hello, $name
Sum: $((2+3))
Cmd: $(echo sub)
EOF
cat <<-EOF
	indented
	EOF
cat <<'X'
$name stays
X
tr a-z A-Z <<< "here string"
