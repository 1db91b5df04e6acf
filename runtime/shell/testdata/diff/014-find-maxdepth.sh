find . -maxdepth 1 | sort
find . -mindepth 2 -type f | sort
find . -path '*lib*' -type f | sort
