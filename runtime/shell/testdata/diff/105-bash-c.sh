bash -c 'echo "in child $1"' _ arg
sh -c 'exit 3'; echo "rc=$?"
cat > s.sh <<'END'
echo "script args: $@"
END
bash s.sh a b
