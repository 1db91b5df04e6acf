# shift: a count beyond $# or below 0 fails with status 1 and shifts
# nothing, a count that is not a number is an error (status 1); in a
# function it shifts the function's arguments.
set -- a; shift -1; echo $?; shift 5; echo "$? $#"; shift x; echo $?
shift; echo "$? $#"; shift; echo "$? $#"
f() { shift 2; echo "f $? $*"; }; f a b c; f a
set -- a b c; shift 2; echo "$*"; shift -- 1; echo "$# $?"
