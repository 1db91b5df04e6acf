cmd="echo evaluated"
eval "$cmd"
v=name
eval "$v=value"
echo $name
