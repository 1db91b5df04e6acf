package git

import "strings"

// moreScripts are the scripts for log --graph of branched histories,
// combined diffs of merges, bisect, worktree and rebase's reflog.
var moreScripts = map[string]string{
	"rebase-reflog": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
git checkout -q -b feature
write f.txt "f\n"
git add f.txt
git commit -q -m f1
append f.txt "g\n"
git commit -q -am f2
git checkout -q main
append a.txt "2\n"
git commit -q -am c2
git checkout -q feature
git rebase main
git reflog
git reflog show feature
git --no-pager reflog show main
git reflog -2
git log --graph --oneline --all
`,
	"rebase-reflog-onto": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
git checkout -q -b feature
write f.txt "f\n"
git add f.txt
git commit -q -m f1
append f.txt "g\n"
git commit -q -am f2
git checkout -q main
append a.txt "2\n"
git commit -q -am c2
git checkout -q feature
git rebase --onto main feature~2
git reflog
git reflog show feature
`,
	"rebase-reflog-continue": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
git checkout -q -b feature
write f.txt "f\n"
git add f.txt
git commit -q -m f1
append f.txt "g\n"
git commit -q -am f2
git checkout -q main
append a.txt "2\n"
git commit -q -am c2
git checkout -q feature
write a.txt "x\n"
git commit -q -am fx
git rebase main
write a.txt "1\n2\nx\n"
git add a.txt
git rebase --continue
git reflog
git reflog show feature
`,
	"rebase-reflog-abort": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
git checkout -q -b feature
write f.txt "f\n"
git add f.txt
git commit -q -m f1
append f.txt "g\n"
git commit -q -am f2
git checkout -q main
append a.txt "2\n"
git commit -q -am c2
git checkout -q feature
write a.txt "x\n"
git commit -q -am fx
git rebase main
git rebase --abort
git reflog
git reflog show feature
`,
	"bisect-manual": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
write a.txt "2\n"
git commit -q -am c2
write a.txt "3\n"
git commit -q -am c3
write a.txt "4\n"
git commit -q -am c4
write a.txt "5\n"
git commit -q -am c5
write a.txt "6\nbug\n"
git commit -q -am c6
write a.txt "7\nbug\n"
git commit -q -am c7
write a.txt "8\nbug\n"
git commit -q -am c8
git bisect good
git bisect start
git bisect bad
git bisect good HEAD~7
git bisect good
git bisect skip
git bisect bad
git bisect log
git bisect visualize --oneline
git bisect bad
git bisect log
git bisect reset
git bisect reset
git log --oneline -1
`,
	"bisect-start-args": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
write a.txt "2\n"
git commit -q -am c2
write a.txt "3\n"
git commit -q -am c3
write a.txt "4\n"
git commit -q -am c4
write a.txt "5\n"
git commit -q -am c5
write a.txt "6\nbug\n"
git commit -q -am c6
write a.txt "7\nbug\n"
git commit -q -am c7
write a.txt "8\nbug\n"
git commit -q -am c8
git bisect start HEAD HEAD~7
git bisect bad
git bisect good
git bisect bad
git bisect log
git --no-pager bisect reset
git branch
`,
	"bisect-skips": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
write a.txt "2\n"
git commit -q -am c2
write a.txt "3\n"
git commit -q -am c3
write a.txt "4\n"
git commit -q -am c4
write a.txt "5\n"
git commit -q -am c5
write a.txt "6\nbug\n"
git commit -q -am c6
write a.txt "7\nbug\n"
git commit -q -am c7
write a.txt "8\nbug\n"
git commit -q -am c8
git bisect start
git bisect bad HEAD
git bisect good HEAD~3
git bisect skip
git bisect skip
git bisect skip
git bisect log
git bisect reset
`,
	"bisect-branchy": `
write a.txt "1\n"
git add a.txt
git commit -q -m c1
git checkout -q -b side
write s.txt "s1\n"
git add s.txt
git commit -q -m s1
write s.txt "s2\n"
git commit -q -am s2
git checkout -q main
write a.txt "2\n"
git commit -q -am c2
write a.txt "3\n"
git commit -q -am c3
git merge -q -m merge side
write a.txt "4\n"
git commit -q -am c4
write a.txt "5\n"
git commit -q -am c5
git bisect start HEAD main~4
git bisect good
git bisect bad
git bisect good
git bisect good
git bisect reset
git bisect run true
`,
	"cc-resolved": `
write a.txt "int main\n1\n2\n3\n4\n5\n6\n7\n8\n9\n"
git add a.txt
git commit -q -m base
git checkout -q -b side
write a.txt "int main\n1\n2\n3\n4\n5side\n6\n7\n8\n9\n"
git commit -q -am side
git checkout -q main
write a.txt "int main\n1\n2\n3\n4\n5main\n6\n7\n8\n9m\n"
git commit -q -am main
git merge side
git diff
git diff --cc
git --no-pager diff --cached
write a.txt "int main\n1\n2\n3\n4\n5both\n5side\n6\n7\n8\n9m\n"
git diff
git commit -q -am merged
git show
git show --format=%s
git --no-pager show HEAD
git log -p -1 --format=%s
git log --cc -1 --format=%s
git show HEAD~1
`,
	"cc-clean-merge": `
write a.txt "one\n"
git add a.txt
git commit -q -m base
git checkout -q -b side
write s.txt "side\n"
git add s.txt
git commit -q -m side
git checkout -q main
append a.txt "main\n"
git commit -q -am main
git merge -q --no-edit side
git show
git show --oneline
`,
	"cc-evil-merge": `
write a.txt "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
write b.txt "x\n"
git add .
git commit -q -m base
git checkout -q -b side
write a.txt "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\n"
git commit -q -am side
git checkout -q main
write a.txt "A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n"
write b.txt "y\n"
git commit -q -am main
git merge -q --no-commit side
write a.txt "A\nB\nc\nd\ne\nF\ng\nh\ni\nj\nK\nL\n"
write c.txt "new\n"
git add .
git commit -q -m evil
git show
git show -U1 --format=%h
`,
	"cc-two-conflicts": `
write a.txt "1\n2\n3\n"
write b.txt "x\ny\n"
git add .
git commit -q -m base
git checkout -q -b side
write a.txt "1\nside\n3\n"
write b.txt "x\n"
git commit -q -am side
git checkout -q main
write a.txt "1\nmain\n3\nmore\n"
write b.txt "x\ny\nz\n"
git commit -q -am main
git merge side
git diff
git diff a.txt
git status --short
`,
	"graph-merge": `
write a.txt "one\n"
git add a.txt
git commit -q -m first
git checkout -q -b feature
write f.txt "f\n"
git add f.txt
git commit -q -m "add f"
append f.txt "more\n"
git commit -q -am "more f"
git checkout -q main
append a.txt "main\n"
git commit -q -am "main change"
git merge -q --no-edit feature
append a.txt "after\n"
git commit -q -am after
git log --graph --oneline --all
git --no-pager log --graph --oneline --decorate --all
git log --graph
git log --graph --stat -3
git log --graph --format=%s%n%an
git log --graph -p -2 --format=%h
git log --graph --oneline -n 3
git log --graph --oneline --first-parent
git log --graph --oneline main~1..main
git log --graph --oneline feature
git log --topo-order --oneline
git log --date-order --oneline
git log --graph --oneline -- f.txt
`,
	// A path-limited --graph of merged histories: git rewrites each shown
	// commit's parents to the nearest shown ones, through the commits and
	// merges the pathspec hides.
	"graph-pathspec-merges": `
write a.txt "1\n2\n3\n4\n5\n6\n"
write b.txt "b\n"
git add a.txt b.txt
git commit -q -m base
git checkout -q -b feature
write a.txt "1f\n2\n3\n4\n5\n6\n"
git commit -q -am "feature a"
write b.txt "b\nfeature\n"
git commit -q -am "feature b"
git checkout -q main
write c.txt "c\n"
git add c.txt
git commit -q -m "main c"
write a.txt "1\n2\n3\n4\n5\n6m\n"
git commit -q -am "main a"
git merge -q --no-edit feature
write c.txt "c\nafter\n"
git commit -q -am "after c"
git log --graph --oneline -- a.txt
git log --graph --oneline -- b.txt
git log --graph --oneline -- c.txt
git log --graph --oneline -- a.txt b.txt
git log --graph --oneline --all -- a.txt
git log --graph -- a.txt
git log --graph --format='%h %p %s' -- a.txt
git log --graph --stat --format=%s -- a.txt
git log --graph --oneline -- '*.txt'
git log --topo-order --oneline -- a.txt
git log --graph --oneline -- nothing.txt
`,
	"graph-pathspec-rewrite": `
write a.txt "1\n2\n3\n4\n5\n6\n"
git add a.txt
git commit -q -m base
git checkout -q -b topic
write t.txt "t\n"
git add t.txt
git commit -q -m "topic t"
write a.txt "1t\n2\n3\n4\n5\n6\n"
git commit -q -am "topic a"
git checkout -q main
write m.txt "m\n"
git add m.txt
git commit -q -m "main m"
write a.txt "1\n2\n3\n4\n5\n6m\n"
git commit -q -am "main a"
git merge -m "merge topic" topic
git checkout -q topic
write t.txt "t\nt2\n"
git commit -q -am "topic t2"
git checkout -q main
write m.txt "m\nm2\n"
git commit -q -am "main m2"
git merge -m "merge topic again" topic
git log --graph --oneline -- a.txt
git log --graph --oneline -- t.txt
git log --graph --oneline -- m.txt t.txt
git log --graph --oneline -- a.txt t.txt
git log --graph --format='%h %p %s' -- m.txt t.txt
git log --graph --oneline --first-parent -- a.txt
git log --graph --oneline main~1 -- a.txt m.txt
git log --graph --oneline --decorate --all -- t.txt
git log --graph --oneline topic..main -- a.txt t.txt
`,
	"graph-unmerged": `
write a.txt "one\n"
git add a.txt
git commit -q -m first
git checkout -q -b one
write b.txt "b\n"
git add b.txt
git commit -q -m b
git checkout -q main
git checkout -q -b two
write c.txt "c\n"
git add c.txt
git commit -q -m c
append c.txt "c2\n"
git commit -q -am c2
git checkout -q main
append a.txt "two\n"
git commit -q -am main2
git log --graph --oneline --all
git log --graph --oneline --decorate --all
git log --graph --all --format=%s
git log --graph --all
`,
	"graph-criss-cross": `
write a.txt "one\n"
git add a.txt
git commit -q -m base
git checkout -q -b side
write s.txt "s\n"
git add s.txt
git commit -q -m s1
git checkout -q main
write m.txt "m\n"
git add m.txt
git commit -q -m m1
git merge -q -m "merge side" side
git checkout -q side
git merge -q -m "merge m1" main~1
write t.txt "t\n"
git add t.txt
git commit -q -m s2
git checkout -q main
append m.txt "m2\n"
git commit -q -am m2
git merge -q -m "merge side again" side
git log --graph --oneline --all
git log --graph --oneline --decorate
git log --graph --format='%h %p %s'
git log --graph --oneline -- s.txt m.txt
git log --graph --oneline -- t.txt
git log --graph --oneline --all -- a.txt s.txt
git log --graph --format='%h %p %s' -- m.txt t.txt
`,
	"graph-many": `
write a.txt "0\n"
git add a.txt
git commit -q -m c0
git checkout -q -b x
write x.txt "x\n"
git add x.txt
git commit -q -m x1
git checkout -q main
git checkout -q -b y
write y.txt "y\n"
git add y.txt
git commit -q -m y1
git checkout -q main
git checkout -q -b z
write z.txt "z\n"
git add z.txt
git commit -q -m z1
git checkout -q main
append a.txt "1\n"
git commit -q -am c1
git merge -q --no-edit y
git checkout -q x
append x.txt "2\n"
git commit -q -am x2
git checkout -q main
git merge -q --no-edit z
git merge -q --no-edit x
git log --graph --oneline --all
git log --graph --oneline --all --decorate
git log --graph --format=%s --all
git log --graph --oneline -- x.txt y.txt
git log --graph --oneline --all -- a.txt z.txt
git log --graph --oneline -- a.txt x.txt y.txt z.txt
git log --graph --format='%h %p %s' -- y.txt z.txt
`,
}

func init() {
	for n, s := range moreScripts {
		scripts[n] = s
	}
	// Every query is also run as "git --no-pager ...", the way agents
	// type them, on the setups with branches and history.
	for _, setup := range []string{"dirty", "history", "branches"} {
		for q := range queries {
			scripts["q-"+setup+"-nopager-"+q] = setups[setup] + "\n" + strings.Replace(queries[q], "git ", "git --no-pager ", 1) + "\n"
		}
	}
	scripts["graph-branches-medium"] = setups["branches"] + "\ngit merge -q --no-edit feature\ngit log --graph --all\ngit log --graph --stat\ngit -P log --graph --decorate --oneline --all\n"
}
