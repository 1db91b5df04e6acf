mkdir -p a/b/c
touch a/b/c/file.txt
ls -R a
rm -r a/b
ls a
rmdir a
ls -d a 2>/dev/null || echo gone
