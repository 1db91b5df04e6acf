yes | head -3
yes no | head -2
yes abc | head -c 11; echo
