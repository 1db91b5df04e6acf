for f in a.go b.ts c.md d; do
  case $f in
    *.go) echo "$f go";;
    *.ts|*.js) echo "$f script";;
    *.md) echo "$f doc";;
    *) echo "$f other";;
  esac
done
case yes in [yY]*) echo affirmative;; esac
