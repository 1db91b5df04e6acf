command -v cd
type cd
f() { :; }
type f
command -v nosuch || echo "not found"
