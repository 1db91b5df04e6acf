grep -rn TODO . | sort
