# shopt -q answers by status (1 when an option is off or unknown), shopt -p
# prints the reusable form (-o: set's options), shopt NAME fails when off.
shopt -q nullglob; echo "q=$?"
shopt -s nullglob; shopt -q nullglob; echo "q=$?"
shopt -q nullglob extglob; echo "both=$?"
shopt -p nullglob extglob
shopt -p -o noglob errexit
set -f; shopt -p -o noglob; set +f
shopt -u nullglob; shopt nullglob > /dev/null; echo "off=$?"
shopt -q nosuch 2>/dev/null; echo "unknown=$?"
