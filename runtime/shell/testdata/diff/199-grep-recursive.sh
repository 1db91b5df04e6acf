grep -rl TODO . | sort
grep -rn --include='*.go' func src | sort
grep -rc TODO --include='*.md' .
grep -ril todo src | sort
grep -rL TODO src | sort
