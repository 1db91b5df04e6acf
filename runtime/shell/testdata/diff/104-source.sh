cat > lib.sh <<'END'
helper() { echo "helper $1"; }
LIBVAR=42
END
source lib.sh
helper x
echo $LIBVAR
. ./lib.sh
