echo {1..5}
echo {a,b,c}.txt
mkdir -p tmp/{x,y,z}
ls tmp
echo {01..03}
