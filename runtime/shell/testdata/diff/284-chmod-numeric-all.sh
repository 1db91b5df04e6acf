touch f
for m in 000 111 222 444 555 666 700 750 755 777; do chmod $m f; stat -c '%a %A' f; done
