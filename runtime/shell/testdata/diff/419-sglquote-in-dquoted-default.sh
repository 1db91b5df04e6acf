# Inside double quotes, single quotes in the word of ${x-word} (and :-, +, :+,
# =, ?) are plain characters, a } between them does not end it, and $var
# between them expands; in ${x%'pat'} and ${x//'pat'/r} they still quote.
p() { echo "$# $(printf '<%s>' "$@")"; }
var='a b c'
p "${Unset:-'b'}"; p "${Unset:-'a b c'}"; p "${Unset:-'$var'}"; p "${unset:-'a'}" ${unset:-'a'}
p "${var-}}" "${var-'}'}" "${var-"}"}"
p "${undef-'c d'}" "${undef-'c  d'}"
foo='a b c d'; p "${foo%'c d'}" "${foo//'c d'/zzz}" "${foo//'c d'/'zzz'}"
p "${u:-${u:-'x'}}" "${u:-$(echo 'y z')}" "${u:+'q'}" "${var:+'q'}" "${u='w'}"; echo "$u"
