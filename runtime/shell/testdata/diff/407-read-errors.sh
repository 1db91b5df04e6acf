# read: a bad number, timeout or name is status 1; an unknown option or
# a missing value is status 2 (bash 5.2).
read -n -1 </dev/null; echo "status=$?"
read -n x </dev/null; echo "status=$?"
read -t -0.5 </dev/null; echo "status=$?"
read -t x </dev/null; echo "status=$?"
read a-b </dev/null; echo "status=$?"
read -Q </dev/null 2>/dev/null; echo "status=$?"
read -n </dev/null 2>/dev/null; echo "status=$?"
echo hi | { read -rn1 v; echo "v=$v"; }
