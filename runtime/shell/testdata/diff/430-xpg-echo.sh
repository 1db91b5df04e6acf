# shopt -s xpg_echo: echo reads backslash escapes unless -E; shopt -p NAME fails when off.
shopt -p xpg_echo
shopt -q xpg_echo; echo q=$?
shopt -s xpg_echo
shopt -p xpg_echo
echo 'a\tb' "c\\nd"
echo -E 'a\tb'
echo -n 'x\ty'; echo
shopt -u xpg_echo
shopt -p xpg_echo; echo p=$?
echo 'a\tb'
