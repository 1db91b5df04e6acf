p=/usr/local/bin:/usr/bin
echo "${p//:/ }"
s="a-b-c"; echo "${s/-/+}" "${s//-/}" "${s//-/$s}"
false; echo "${s//b/B} $?"
f="file.tar.gz"; echo "${f%%.*}" "${f#*.}" "${f%.gz}.xz"
sep=", "; list="x y z"; echo "${list// /$sep}"
