echo {a,b,c}.txt
echo file{1..3}
echo {01..03}
echo {a..e..2}
mkdir -p tree/{x,y}/{1,2}; find tree | sort
