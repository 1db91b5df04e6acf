# Extended globs: @( ) and +( ) and !( ) glob files without a * or ?;
# their pattern list may hold blanks, quotes and expansions; quoted | and
# parentheses match themselves.
shopt -s extglob
mkdir -p xg && cd xg
touch ab ac 'a b' foo '__|' '_*' _x
echo @(ab|ac) +(a|b|c) !(ab|ac|_*)
printf '<%s>\n' @(a b|foo) @($(echo fo)o|'_*') @('__|'|__\|)
printf '<%s>\n' @(nomatch|'*')
[[ 'a|b' == @("a|b") ]] && echo quoted-pipe
[[ '@(cc)' == '@(cc)' ]] && echo literal-extglob
[[ cc == '@(cc)' ]] || echo no-extglob-in-quotes
cd .. && rm -r xg
