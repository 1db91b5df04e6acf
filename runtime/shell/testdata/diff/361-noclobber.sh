# set -C (noclobber): > and &> refuse an existing regular file (status 1,
# the file kept), >> appends, >| overwrites, /dev/null stays writable;
# set -o shows the option.
echo one > f
set -C
echo two > f; echo "overwrite=$?"
echo three >> f; echo "append=$?"
cat f
echo four &> f; echo "both=$?"
echo five >| f; echo "force=$?"
cat f
echo six > new; echo "create=$?"; cat new
echo seven > /dev/null; echo "devnull=$?"
set -o | grep -E '^noclobber'
set +C
echo eight > f; echo "off=$?"; cat f
