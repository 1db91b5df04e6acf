# Unquoted ${!prefix@} and ${!a[@]} give a field per name or key, also when
# IFS is empty; with an empty IFS, ${!a[*]} is its keys joined by spaces.
p() { echo "$# $(printf '<%s>' "$@")"; }
gLw_var1=1; gLw_var2=2; a=(v1 v2 v3); a[7]=v7
IFS=''; p ${!gLw_@}; p ${!gLw_*}; p ${!a[@]}; p ${!a[*]}
IFS=$' \t\n'; p ${!gLw_@}; p ${!a[@]}; p x${!a[@]}y
