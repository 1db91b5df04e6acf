for s in 0 1 2 5; do echo "scale=$s; 2/3" | bc; done
echo "scale=2; 1.005 * 100" | bc
echo "scale=3; -1/3" | bc
echo "5/2; -5/2" | bc
