mkdir -p t/a/b; touch t/a/x t/a/b/y
chmod -R 750 t; find t | sort | xargs stat -c '%a %n'
chmod -R o+rX t; find t | sort | xargs stat -c '%a %n'
chmod -R -v go-rwx t | sort
