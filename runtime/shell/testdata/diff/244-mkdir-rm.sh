mkdir -p a/b/c && ls -R a
rmdir a/b/c && ls a/b
rm -r a; ls a 2>/dev/null || echo gone
mkdir x; mkdir x 2>/dev/null || echo exists
rm -f nosuch; echo "rm -f: $?"
touch t1 t2; rm -v t1 t2
