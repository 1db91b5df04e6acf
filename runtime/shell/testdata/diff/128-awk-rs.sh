printf 'name: a\nage: 1\n\nname: b\nage: 2\n\n\nname: c\n' | awk 'BEGIN { RS = "" } { print NR, $2, $4 }'
printf 'a;b;c;' | awk 'BEGIN { RS = ";" } { print NR ": " $0 }'
printf 'one two\nthree\n' | awk 'BEGIN { RS = " " } { print "[" $0 "]" }'
printf 'x,y\n' | awk 'BEGIN { FS = ","; RS = "\n" } { print $2 }'
