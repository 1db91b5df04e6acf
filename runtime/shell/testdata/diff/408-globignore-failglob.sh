# GLOBIGNORE leaves out the names it matches (and . and .., with dotglob on);
# globskipdots off lets .* match . and ..; failglob makes a pattern without
# a match an error of status 1.
mkdir -p gi/sub && cd gi
touch a.txt b.md .hid sub/c.txt sub/d.md
echo * sub/*
GLOBIGNORE='*.txt:sub/d*'
echo * sub/*
echo .*
GLOBIGNORE='*'
echo *
GLOBIGNORE=
echo .*
shopt -u globskipdots
echo .*
shopt -s globskipdots
shopt -s failglob
echo *.none
echo "status=$?"
for f in *.none; do echo "$f"; done
echo "loop=$?"
shopt -u failglob
shopt -s extglob
echo @(a|b).*
cd .. && rm -r gi
