package git

// setups build a repository state; queries look at it. Every setup is
// run with every query, and the hand-written scripts below cover the
// commands that change history.
var setups = map[string]string{
	"one": `
write a.txt "one\ntwo\nthree\n"
git add a.txt
git commit -q -m first
`,
	"dirty": `
write a.txt "one\ntwo\nthree\n"
write dir/b.txt "bee\n"
git add .
git commit -q -m first
write a.txt "one\n2\nthree\n"
write c.txt "sea\n"
write dir/new/d.txt "dee\n"
git add c.txt
rm dir/b.txt
`,
	"history": `
write a.txt "one\n"
git add a.txt
git commit -q -m first
append a.txt "two\n"
write b.txt "bee\n"
git add -A
git commit -q -m second -m "with a body"
git tag v1
append a.txt "three\n"
git commit -q -am third
git mv b.txt c.txt
git commit -q -m "rename b"
`,
	"branches": `
write a.txt "one\n"
git add a.txt
git commit -q -m first
git checkout -q -b feature
write f.txt "feature\n"
git add f.txt
git commit -q -m "add f"
git checkout -q main
append a.txt "main\n"
git commit -q -am "main change"
`,
	"staged": `
write a.txt "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
write s.sh "echo hi\n"
git add .
git commit -q -m base
write a.txt "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nNINE\nten\n"
git add a.txt
write a.txt "zero\none\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nNINE\nten\n"
chmod+x s.sh
`,
	"empty": ``,
}

var queries = map[string]string{
	"status":           "git status",
	"status-s":         "git status -s",
	"status-sb":        "git status -sb",
	"status-porcelain": "git status --porcelain",
	"status-v2":        "git status --porcelain=v2 --branch",
	"status-uno":       "git status -uno",
	"status-uall":      "git status -s -uall",
	"diff":             "git diff",
	"diff-stat":        "git diff --stat",
	"diff-cached":      "git diff --cached",
	"diff-staged-stat": "git diff --staged --stat",
	"diff-shortstat":   "git diff HEAD --shortstat",
	"diff-name-only":   "git diff HEAD --name-only",
	"diff-name-status": "git diff --name-status HEAD",
	"diff-u1":          "git diff -U1 --no-color",
	"log":              "git log",
	"log-oneline":      "git log --oneline",
	"log-1-format":     "git log -1 --format=%H",
	"log-format":       "git log --format='%h %an <%ae> %ad%n%s|%b|%T %t %P'",
	"log-n5":           "git log -n5 --oneline --stat",
	"log-name-status":  "git log --name-status --format=%s",
	"log-all":          "git log --all --oneline --decorate",
	"log-graph":        "git log --graph --oneline --all",
	"log-patch":        "git log -p -2",
	"show":             "git show",
	"show-stat":        "git show --stat",
	"revparse":         "git rev-parse HEAD --abbrev-ref HEAD --short HEAD",
	"branch-list":      "git branch -a",
	"ls-files":         "git ls-files",
}

var handWritten = map[string]string{
	"commit-am": `
write a.txt "one\n"
git add a.txt
git commit -m first
write a.txt "two\n"
git commit -am "second"
git log --oneline
`,
	"commit-amend": `
write a.txt "one\n"
git add a.txt
git commit -m first
write b.txt "b\n"
git add b.txt
git commit --amend -m "first, amended"
git log --format=%s
git commit --amend --no-edit -q
git show --stat --format=%s
`,
	"commit-nothing": `
write a.txt "one\n"
git add a.txt
git commit -q -m first
git commit -m again
write u.txt "u\n"
git commit -m again
git commit --allow-empty -m empty
`,
	"commit-no-message": `
write a.txt "one\n"
git add a.txt
git commit
git commit -m
`,
	"usage-unknown-option": `
git commit -Z
`,
	"unknown-command": `
git frobnicate
`,
	"commit-paths": `
write a.txt "a\n"
write b.txt "b\n"
git add .
git commit -q -m first
write a.txt "a2\n"
write b.txt "b2\n"
git commit -m "only a" a.txt
git status -s
`,
	"add-glob": `
write a.txt "a\n"
write d/b.txt "b\n"
write d/c.md "c\n"
git add '*.txt'
git status -s
git add nothing.txt
`,
	"add-u": `
write a.txt "a\n"
git add a.txt
git commit -q -m first
write a.txt "a2\n"
write new.txt "n\n"
git add -u
git status --short
`,
	"add-p": `
write a.txt "a\n"
git add -p
`,
	"add-ignored": `
write .gitignore "*.log\nbuild/\n"
write x.log "x\n"
write build/out "o\n"
write a.txt "a\n"
git add .
git status --porcelain
git add x.log
git status --ignored=no -s
`,
	"rm-cached": `
write a.txt "a\n"
write d/b.txt "b\n"
git add .
git commit -q -m first
git rm --cached a.txt
git status -s
git rm d
git rm -r d
git status -s
`,
	"rm-modified": `
write a.txt "a\n"
git add .
git commit -q -m first
write a.txt "b\n"
git rm a.txt
git rm -f a.txt
git status -s
`,
	"mv": `
write a.txt "a\n"
write d/b.txt "b\n"
git add .
git commit -q -m first
git mv a.txt b.txt
git mv d e
git status
git commit -q -m moved
git log --stat --format=%s -1
git mv nope x
`,
	"restore": `
write a.txt "a\n"
git add .
git commit -q -m first
write a.txt "changed\n"
git add a.txt
git restore --staged a.txt
git status -s
git restore a.txt
git status -s
`,
	"restore-source": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "two\n"
git commit -q -am second
git restore --source=HEAD~1 a.txt
git diff
git restore --source HEAD --staged --worktree a.txt
git status -s
`,
	"reset-modes": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "two\n"
git commit -q -am second
git reset --soft HEAD~1
git status -s
git reset
git status -s
git reset --hard
git status
git log --oneline
`,
	"reset-hard-rev": `
write a.txt "one\n"
git add .
git commit -q -m first
write b.txt "two\n"
git add .
git commit -q -m second
git reset --hard HEAD~1
git log --oneline --all
`,
	"reset-path": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "two\n"
git add a.txt
git reset a.txt
git status -s
git reset -- a.txt
`,
	"branch-ops": `
write a.txt "one\n"
git add .
git commit -q -m first
git branch feature
git branch
git branch -m feature topic
git branch
git branch --show-current
git branch -d topic
git branch -d nope
git branch -d main
git branch 'bad name'
`,
	"branch-unmerged": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b side
write b.txt "b\n"
git add .
git commit -q -m side
git checkout -q main
git branch -d side
git branch -D side
`,
	"checkout-b-start": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "two\n"
git commit -q -am second
git checkout -b old HEAD~1
git log --oneline
git checkout -
git branch --show-current
git checkout -
git branch --show-current
`,
	"switch-c": `
write a.txt "one\n"
git add .
git commit -q -m first
git switch -c topic
git switch main
git switch topic
git switch nope
git switch -c topic
`,
	"checkout-carry": `
write a.txt "one\n"
write b.txt "b\n"
git add .
git commit -q -m first
git branch other
write a.txt "local\n"
git checkout other
git status -s
`,
	"checkout-conflict": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b other
write a.txt "other\n"
git commit -q -am other
git checkout -q main
write a.txt "local\n"
git checkout other
git checkout -f other
git status -s
`,
	"checkout-paths": `
write a.txt "one\n"
write b.txt "b\n"
git add .
git commit -q -m first
write a.txt "x\n"
write b.txt "y\n"
git checkout -- a.txt
git status -s
git checkout HEAD b.txt
git status -s
git checkout -- nope.txt
`,
	"checkout-detach": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "two\n"
git commit -q -am second
git checkout HEAD~1
git status
git branch
git checkout main
`,
	"tags": `
write a.txt "one\n"
git add .
git commit -q -m first
git tag v1
git tag -a v2 -m "version two"
git tag
git tag -l 'v*'
git show v2 --stat
git tag -d v1
git tag v2
git log --oneline --decorate
`,
	"describe-none": `
git commit -q --allow-empty -m first
git describe
git describe --always
git tag light
git describe
git describe --tags
git describe --tags --long
git describe --always --abbrev=10
git describe --exact-match
git describe --tags --exact-match
git describe nosuch
`,
	"describe-history": `
write a.txt "one\n"
git add .
git commit -q -m first
git tag -a v1.0 -m "release 1.0"
git tag light
write a.txt "two\n"
git commit -q -am second
git describe
git describe --tags
git describe --tags --abbrev=0
git describe --abbrev=4
git describe --long
git describe HEAD~1
git describe --long HEAD~1
git tag -a v1.1 -m "release 1.1"
write a.txt "three\n"
git commit -q -am third
git describe --match "v1.0*"
git describe --exclude "v1.1"
git describe --candidates=1
git describe --exact-match
git describe --tags --exact-match HEAD~1
git describe v1.0 v1.1
git describe --dirty
write a.txt "changed\n"
git describe --dirty
git describe --dirty=+
git describe --dirty HEAD
write u.txt "untracked\n"
git checkout -q -- a.txt
git describe --dirty
`,
	"describe-merge": `
write a.txt "one\n"
git add .
git commit -q -m first
git tag -a base -m base
git checkout -q -b side
write s.txt "s\n"
git add .
git commit -q -m s1
git tag -a side-tag -m side
write s.txt "s2\n"
git commit -q -am s2
git checkout -q main
write m.txt "m\n"
git add .
git commit -q -m m1
write m.txt "m2\n"
git commit -q -am m2
write m.txt "m3\n"
git commit -q -am m3
git merge -q --no-ff -m merge side
git describe
git describe --first-parent
git describe HEAD^2
git describe --tags --long HEAD^1
`,
	"shortlog": `
write a.txt "one\n"
git add .
git commit -q -m first
git -c user.name=Zed -c user.email=z@example.com commit -q --allow-empty -m "by zed"
git -c user.name=alice -c user.email=a@example.com commit -q --allow-empty -m "by alice" -m "a body line"
git commit -q --allow-empty -m "  spaced   subject  "
git shortlog HEAD
git shortlog -s HEAD
git shortlog -sn HEAD
git shortlog -sne HEAD
git shortlog -s -c HEAD
git shortlog HEAD~2..HEAD
git shortlog -s HEAD -- a.txt
git shortlog -s --all
git checkout -q -b side HEAD~1
git commit -q --allow-empty -m side
git checkout -q main
git merge -q --no-ff -m merged side
git shortlog -s --no-merges HEAD
git shortlog -n HEAD
`,
	"global-options": `
write a.txt "one\n"
git --no-pager add .
git -P commit -q -m first
write a.txt "two\n"
git --no-pager diff
git --no-pager --no-optional-locks status --short
git -P log --oneline
git --no-pager -c core.abbrev=9 -c color.ui=never show --stat --format=%s
git --literal-pathspecs --no-pager diff --stat
git --bogus status
`,
	"commit-amend-empty": `
write a.txt "one\n"
git add .
git commit -q -m first
git commit -q --allow-empty -m empty
git commit --amend -m x
git commit --amend --no-edit
git commit --amend --allow-empty -q -m "still empty"
git log --format=%s
`,
	"stash-pop-unrelated": `
write a.txt "one\n"
write b.txt "bee\n"
git add .
git commit -q -m first
write a.txt "changed\n"
git stash -q
write b.txt "local\n"
git stash pop
git status --short
git stash list
`,
	"diff-filter": `
write a.txt "one\n"
write b.txt "bee\n"
write c.txt "sea\n"
git add .
git commit -q -m first
write a.txt "two\n"
rm b.txt
write d.txt "dee\n"
git add -A
git commit -q -m second
git diff --name-status --diff-filter=M HEAD~1
git diff --name-status --diff-filter=A HEAD~1 HEAD
git diff --name-status --diff-filter=D HEAD~1 HEAD
git diff --name-status --diff-filter=AD HEAD~1 HEAD
git diff --name-only --diff-filter=d HEAD~1 HEAD
git diff --stat --diff-filter=M HEAD~1 HEAD
git log --name-status --format=%s --diff-filter=A
git diff --name-status --diff-filter=U HEAD~1
git diff --diff-filter=Q HEAD~1
`,
	"reflog": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "two\n"
git commit -q -am second
git commit -q --amend -m "second, amended"
git checkout -q -b side
write s.txt "s\n"
git add .
git commit -q -m side
git checkout -q main
git merge -q --no-ff -m "merge side" side
git reset -q --hard HEAD~1
git merge -q side
git branch other HEAD~1
git checkout -q -b third other
git checkout -q main
git revert --no-edit HEAD
git reflog
git reflog other
git reflog third
git reflog show -n 3
git reflog main
git reflog show side
git reflog nosuch
`,
	"merge-ff": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write b.txt "b\n"
git add .
git commit -q -m "add b"
git checkout -q main
git merge feature
git log --oneline
git merge feature
`,
	"merge-no-ff": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write b.txt "b\n"
git add .
git commit -q -m "add b"
git checkout -q main
git merge --no-ff feature
git log --oneline
git log --format=%P -1
`,
	"merge-three-way": `
write a.txt "one\ntwo\nthree\n"
git add .
git commit -q -m first
git checkout -q -b feature
write b.txt "b\n"
write a.txt "one\ntwo\nTHREE\n"
git add .
git commit -q -m "feature work"
git checkout -q main
write a.txt "ONE\ntwo\nthree\n"
git commit -q -am "main work"
git merge feature
git log --oneline
`,
	"merge-conflict": `
write a.txt "one\ntwo\nthree\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "one\nfeature\nthree\n"
git commit -q -am feature
git checkout -q main
write a.txt "one\nmain\nthree\n"
git commit -q -am main
git merge feature
git status
git status -s
git diff --name-only
git commit -m x
write a.txt "one\nresolved\nthree\n"
git add a.txt
git status
git commit --no-edit
git log --oneline
`,
	"diff-conflicted": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "feature\n"
git commit -q -am feature
git checkout -q main
write a.txt "main\n"
git commit -q -am main
git merge feature
git diff
git diff --name-status
`,
	"stash-basic": `
write a.txt "one\n"
write b.txt "bee\n"
git add .
git commit -q -m first
write a.txt "changed\n"
write n.txt "new\n"
git add n.txt
git stash
git status -s
git stash list
git stash show
git stash show -p
git stash pop
git status -s
git stash list
`,
	"stash-message": `
write a.txt "one\n"
git add .
git commit -q -m first
git stash
write a.txt "two\n"
git stash push -m "my work"
write a.txt "three\n"
git stash -q
git stash list
git stash apply stash@{1}
git status -s
git stash drop
git stash list
git stash drop stash@{5}
git reset -q --hard
git stash pop
git stash list
git stash pop
`,
	"stash-conflict": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "stashed\n"
git stash -q
write a.txt "committed\n"
git commit -q -am second
git stash pop
git status -s
git stash list
`,
	"stash-unborn": `
write a.txt "one\n"
git stash
`,
	"rebase-linear": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write x.txt "x\n"
git add .
git commit -q -m "add x"
write y.txt "y\n"
git add .
git commit -q -m "add y"
git checkout -q main
write a.txt "main\n"
git commit -q -am "main change"
git checkout -q feature
git rebase main
git log --oneline
git rebase main
`,
	"rebase-ff": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write x.txt "x\n"
git add .
git commit -q -m "add x"
git checkout -q main
git rebase feature
git log --oneline
`,
	"rebase-conflict": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "feature\n"
git commit -q -am "feature a"
write x.txt "x\n"
git add .
git commit -q -m "add x"
git checkout -q main
write a.txt "main\n"
git commit -q -am "main a"
git checkout -q feature
git rebase main
git status -s
git rebase --continue
write a.txt "resolved\n"
git add a.txt
git rebase --continue
git log --oneline
`,
	"rebase-abort": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "feature\n"
git commit -q -am "feature a"
git checkout -q main
write a.txt "main\n"
git commit -q -am "main a"
git checkout -q feature
git rebase main
git rebase --abort
git log --oneline
git status -s
git rebase --abort
`,
	"rebase-dirty": `
write a.txt "one\n"
git add .
git commit -q -m first
git branch other
write a.txt "dirty\n"
git rebase other
`,
	"grep": `
write a.txt "hello world\nfoo bar\nHello again\n"
write d/b.txt "foo\nbaz\n"
write u.txt "hello untracked\n"
git add a.txt d/b.txt
git commit -q -m one
git grep hello
git grep -n -i hello
git grep -l foo
git grep -c foo
git grep -w fo
git grep nothing-here
git grep -e foo -e baz -- d
git grep 'fo\+'
git grep -E 'fo+|baz'
git grep foo HEAD
`,
	"blame": `
write a.txt "one\ntwo\nthree\n"
git add .
git commit -q -m first
write a.txt "one\n2\nthree\nfour\n"
git commit -q -am second --author "Bob Builder <bob@example.com>"
git blame a.txt
git blame -L 2,3 a.txt
git blame -s a.txt
git blame -e -L 1,+1 a.txt
`,
	"blame-uncommitted": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "zero\none\n"
git blame a.txt
`,
	"pathspec-diff-log": `
write src/a.go "package a\n"
write src/b.go "package b\n"
write docs/x.md "x\n"
git add .
git commit -q -m one
write src/a.go "package a\n\nfunc A() {}\n"
write docs/x.md "x2\n"
git diff --stat -- '*.go'
git diff --name-only src
git diff -- docs/x.md
git commit -q -am two
git log --oneline -- src
git log --oneline -- '*.md'
git log --format=%s --name-only -- docs
git show --stat HEAD -- src
`,
	"dashdash-ambiguity": `
write main "not a branch\n"
git add .
git commit -q -m one
write main "changed\n"
git diff -- main
git log --oneline -- main
git checkout -- main
git status -s
git log nothere --
`,
	"show-rev-path": `
write a.txt "v1\n"
git add .
git commit -q -m one
write a.txt "v2\n"
git commit -q -am two
write a.txt "v3\n"
git commit -q -am three
git show HEAD~2:a.txt
git show HEAD^:a.txt
git show main~1
git show --name-only --format=%s HEAD~1
git show --name-status HEAD
`,
	"diff-U0": `
write a.txt "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
git add .
git commit -q -m one
write a.txt "1\n2\nthree\n4\n5\n6\n7\neight\n9\n"
git diff -U0
git diff --unified=1
git diff -U10
git diff --numstat
git diff --shortstat
git diff --exit-code
git diff --quiet
`,
	"status-nested-untracked": `
write a.txt "a\n"
git add .
git commit -q -m one
write new/deep/er/x.txt "x\n"
write new/y.txt "y\n"
write top.txt "t\n"
git status
git status -s
git status -s -uall
git status --porcelain new
`,
	"checkout-b-carry-dirty": `
write a.txt "a\n"
git add .
git commit -q -m one
write a.txt "dirty\n"
write n.txt "new\n"
git add n.txt
git checkout -b topic
git status -s
git commit -q -m "on topic"
git checkout main
git status -s
`,
	"branch-verbose": `
write a.txt "a\n"
git add .
git commit -q -m one
git branch feature
write a.txt "b\n"
git commit -q -am two
git branch -v
git branch --merged
git branch --no-merged
git branch --contains HEAD~1
git branch -f feature HEAD
git branch -v
`,
	"tag-list-n": `
write a.txt "a\n"
git add .
git commit -q -m "first commit"
git tag -a v1.0 -m "release one"
git tag light
git tag -n
git tag -l 'v*'
git tag -d light nope
git show-ref
`,
	"reset-hard-untracked": `
write a.txt "a\n"
git add .
git commit -q -m one
write a.txt "b\n"
write u.txt "u\n"
write s.txt "s\n"
git add s.txt
git reset --hard HEAD
git status -s
`,
	"rm-glob-r": `
write d/a.log "a\n"
write d/b.log "b\n"
write d/c.txt "c\n"
git add .
git commit -q -m one
git rm -q 'd/*.log'
git status -s
git rm -n -r d
git rm --cached -r -q d
git status -s
`,
	"mv-into-dir": `
write a.txt "a\n"
write b.txt "b\n"
write dir/keep "k\n"
git add .
git commit -q -m one
git mv a.txt b.txt dir
git status -s
git mv -v dir/a.txt a2.txt
git mv dir/b.txt dir/keep
git mv -f dir/b.txt dir/keep
git status -s
`,
	"clean-ignored": `
write .gitignore "*.tmp\n"
write a.txt "a\n"
git add .
git commit -q -m one
write x.tmp "x\n"
write u.txt "u\n"
write d/y.tmp "y\n"
git clean -n
git clean -nx
git clean -nX
git clean -fdx
git status --porcelain
`,
	"config-list": `
git config user.name Grace
git config core.editor vi
git config user.name
git config --get user.name
git config missing.key
`,
	"ls-files-stage-conflict": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "feature\n"
git commit -q -am feature
git checkout -q main
write a.txt "main\n"
git commit -q -am main
git merge -q feature
git ls-files -s
git ls-files -u
git checkout --theirs a.txt
git add a.txt
git commit -q --no-edit
git log --oneline -1
`,
	"grep-subdir": `
write a.txt "needle\n"
write d/b.txt "needle here\nno\n"
git add .
git commit -q -m one
git -C d grep needle
git -C d grep -n needle -- ..
git grep -c needle
git grep -L needle
`,
	"switch-detach": `
write a.txt "a\n"
git add .
git commit -q -m one
write a.txt "b\n"
git commit -q -am two
git switch --detach HEAD~1
git status
git switch -
git switch HEAD~1
git switch -c from-old HEAD~1
git log --oneline
`,
	"log-stat-range": `
write a.txt "1\n"
git add .
git commit -q -m one
write b.txt "2\n"
git add .
git commit -q -m two
write a.txt "1\n1\n"
git commit -q -am three
git log --stat HEAD~2..HEAD
git log --shortstat --oneline
git log --numstat --format=%s
git log --summary --oneline
`,
	"commit-verbose-forms": `
write a.txt "a\n"
git add .
git commit --quiet --message=one
write a.txt "b\n"
git commit --all --message two
write a.txt "c\n"
git commit -a -m three -m four
git log --format=%B
git commit --amend --allow-empty --no-edit -q
git log --oneline
`,
	"restore-worktree-dir": `
write d/a.txt "a\n"
write d/e/b.txt "b\n"
git add .
git commit -q -m one
write d/a.txt "x\n"
rm d/e/b.txt
git restore d
git status -s
write d/a.txt "y\n"
git add d/a.txt
git restore --staged --worktree d/a.txt
git status -s
git restore nothing.txt
`,
	"revert-conflict": `
write a.txt "one\n"
git add .
git commit -q -m first
write a.txt "two\n"
git commit -q -am second
write a.txt "three\n"
git commit -q -am third
git revert HEAD~1
git status -s
git revert --abort
git status -s
git log --oneline
`,
	"cherry-pick-x": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b side
write s.txt "s\n"
git add .
git commit -q -m "side change"
git checkout -q main
git cherry-pick -x side
git log --format=%B -1
git cherry-pick nope
`,
	"merge-ff-only": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b f
write b.txt "b\n"
git add .
git commit -q -m b
git checkout -q main
write c.txt "c\n"
git add .
git commit -q -m c
git merge --ff-only f
git merge nothing
git merge -m "custom message" f
git log -1 --format=%s
`,
	"merge-unrelated": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q --orphan other
git rm -q -r --cached .
write b.txt "b\n"
git add b.txt
git commit -q -m other
git checkout -q main
git merge other
`,
	"plumbing": `
write a.txt "a\n"
write d/b.txt "b\n"
git add .
git commit -q -m one
git branch side
write a.txt "a2\n"
git commit -q -am two
git merge-base main side
git merge-base --is-ancestor side main
git merge-base --is-ancestor main side
git cat-file -t HEAD
git cat-file -p HEAD
git cat-file -s HEAD:a.txt
git cat-file -p HEAD:a.txt
git cat-file -p HEAD^{tree}
git cat-file -e nope
git ls-tree HEAD
git ls-tree -r HEAD
git ls-tree -r --name-only side
`,
	"diff-reverse": `
write a.txt "one\ntwo\n"
write b.txt "bee\n"
git add .
git commit -q -m one
write a.txt "one\nTWO\n"
write c.txt "sea\n"
git add c.txt
rm b.txt
git diff -R
git diff -R --cached
git diff -R HEAD --stat
`,
	"log-since-until": `
write a.txt "1\n"
git add .
git commit -q -m one
write a.txt "2\n"
git commit -q -am two
write a.txt "3\n"
git commit -q -am three
git log --oneline --since=2026-01-01T00:05:00Z
git log --oneline --until=2026-01-01T00:05:00Z
git log --oneline --after=2026-01-01T00:04:00Z --before=2026-01-01T00:06:00Z
`,
	"status-z-signoff": `
write a.txt "a unique\n"
write b.txt "b\n"
git add .
git commit -q -s -m "signed"
git log --format=%B
git mv a.txt c.txt
write b.txt "b2\n"
git status -z
git status --porcelain -z
`,
	"rename-similar": `
write src/lib.go "package lib\n\nfunc One() int {\n\treturn 1\n}\n\nfunc Two() int {\n\treturn 2\n}\n\nfunc Three() int {\n\treturn 3\n}\n"
write other.txt "something else entirely\n"
git add .
git commit -q -m one
git mv src/lib.go src/core.go
write src/core.go "package lib\n\nfunc One() int {\n\treturn 1\n}\n\nfunc Two() int {\n\treturn 22\n}\n\nfunc Three() int {\n\treturn 3\n}\n"
git add -A
git status
git status -s
git status --porcelain=v2
git diff --cached
git diff --cached --stat
git diff --cached --name-status
git commit -q -m moved
git show --stat --format=%s
git log --summary --oneline -1
git diff HEAD~1 --name-status
`,
	"merge-abort": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "feature\n"
git commit -q -am feature
git checkout -q main
write a.txt "main\n"
git commit -q -am main
git merge feature
git merge --abort
git status
git merge --abort
`,
	"merge-continue": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "feature\n"
git commit -q -am feature
git checkout -q main
write a.txt "main\n"
git commit -q -am main
git merge feature
write a.txt "both\n"
git add a.txt
git merge --continue
git log --format='%s %p' -1
`,
	"merge-into-branch": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b dev
write d.txt "d\n"
git add .
git commit -q -m dev
git checkout -q -b topic main
write t.txt "t\n"
git add .
git commit -q -m topic
git checkout -q dev
git merge topic
git log -1 --format=%s
`,
	"merge-delete-modify": `
write a.txt "one\n"
write b.txt "b\n"
git add .
git commit -q -m first
git checkout -q -b feature
git rm -q b.txt
git commit -q -m "rm b"
git checkout -q main
write b.txt "b2\n"
git commit -q -am "change b"
git merge feature
git status -s
`,
	"merge-dirty": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "f\n"
git commit -q -am f
git checkout -q main
write b.txt "b\n"
git add b.txt
git commit -q -m b
write a.txt "local\n"
git merge feature
`,
	"cherry-pick": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write b.txt "b\n"
git add .
git commit -q -m "add b"
git checkout -q main
write c.txt "c\n"
git add .
git commit -q -m "add c"
git cherry-pick feature
git log --oneline
`,
	"cherry-pick-conflict": `
write a.txt "one\n"
git add .
git commit -q -m first
git checkout -q -b feature
write a.txt "feature\n"
git commit -q -am "change a"
git checkout -q main
write a.txt "main\n"
git commit -q -am "main a"
git cherry-pick feature
git status -s
git cherry-pick --abort
git status -s
`,
	"revert": `
write a.txt "one\n"
git add .
git commit -q -m first
write b.txt "b\n"
git add .
git commit -q -m "add b"
git revert HEAD
git log --format=%B -1
git status -s
`,
	"show-path": `
write a.txt "one\n"
write d/b.txt "bee\n"
git add .
git commit -q -m first
write a.txt "two\n"
git commit -q -am second
git show HEAD~1:a.txt
git show HEAD:d/b.txt
git show HEAD:nope
git rev-parse HEAD:a.txt
`,
	"log-range": `
write a.txt "1\n"
git add .
git commit -q -m one
git branch base
append a.txt "2\n"
git commit -q -am two
append a.txt "3\n"
git commit -q -am three
git log --oneline base..main
git log --oneline base..
git log --oneline ^base main
git log --format=%s -n 1 --skip 1
git log --oneline --reverse
`,
	"log-filters": `
write a.txt "1\n"
git add .
git commit -q -m "fix: one"
write b.txt "2\n"
git add .
git commit -q -m "feat: two" --author "Bob <bob@example.com>"
git log --oneline --author=Bob
git log --oneline --grep=fix
git log --format='%an %s'
git log --oneline -- b.txt
git log --oneline a.txt
`,
	"log-unborn": `
git log
git log --oneline
git rev-parse HEAD
git status
`,
	"log-bad": `
write a.txt "1\n"
git add .
git commit -q -m one
git log --bogus
git log nope
git log -n
git diff nope
git rev-parse nope
`,
	"diff-commits": `
write a.txt "one\ntwo\n"
git add .
git commit -q -m one
write a.txt "one\nthree\n"
write b.txt "b\n"
git add .
git commit -q -m two
git diff HEAD~1 HEAD
git diff HEAD~1..HEAD --stat
git diff HEAD~1 --name-status
git diff HEAD~1 HEAD -- b.txt
`,
	"diff-function-context": `
write m.go "package m\n\nfunc a() {\n\tx := 1\n\ty := 2\n\tz := 3\n\treturn\n}\n"
git add .
git commit -q -m one
write m.go "package m\n\nfunc a() {\n\tx := 1\n\ty := 2\n\tz := 4\n\treturn\n}\n"
git diff
`,
	"diff-no-newline": `
write a.txt "one\ntwo"
git add .
git commit -q -m one
write a.txt "one\ntwo\n"
git diff
`,
	"diff-stat-scale": `
write a.txt "x\n"
git add .
git commit -q -m one
write a.txt "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n31\n32\n33\n34\n35\n36\n37\n38\n39\n40\n41\n42\n43\n44\n45\n46\n47\n48\n49\n50\n51\n52\n53\n54\n55\n56\n57\n58\n59\n60\n61\n62\n63\n64\n65\n66\n67\n68\n69\n70\n"
write a-very-long-directory-name/with-a-long-file-name-too/and-deeper-still/file.txt "z\n"
git add .
git diff --cached --stat
`,
	"diff-binary": `
write a.bin "a\0b"
git add .
git commit -q -m one
git show --stat
`,
	"clean": `
write a.txt "one\n"
git add .
git commit -q -m one
write u.txt "u\n"
write d/x.txt "x\n"
git clean
git clean -n
git clean -nd
git clean -f
git status -s
git clean -fd
git status -s
`,
	"config": `
git config user.name "Grace Hopper"
git config user.email grace@example.com
git config user.name
write a.txt "a\n"
git add .
git commit -q -m one
git log --format='%an <%ae>'
git config nosection
`,
	"c-identity": `
write a.txt "a\n"
git add .
git -c user.name=Linus -c user.email=l@example.com commit -q -m one
git log --format='%an %ae %cn'
`,
	"dash-C": `
write sub/a.txt "a\n"
git -C sub add a.txt
git -C sub status
git -C sub status -s
git -C sub commit -q -m one
git -C sub log --oneline
git -C sub ls-files
git -C sub rev-parse --show-toplevel --show-prefix
`,
	"numeric-count": `
write a.txt "1\n"
git add .
git commit -q -m one
append a.txt "2\n"
git commit -q -am two
append a.txt "3\n"
git commit -q -am three
git log -2 --oneline
git log -n1 --oneline
git log --max-count=1 --format=%s
git log --oneline -1 HEAD~1
`,
	"bundled-flags": `
write a.txt "1\n"
git add .
git commit -qm one
write a.txt "2\n"
git commit -qam two
git log --oneline
git status -sb
`,
	"pretty-formats": `
write a.txt "1\n"
git add .
git commit -q -m "one" -m "body line"
git log --pretty=oneline
git log --pretty=short
git log --pretty=full
git log --pretty=fuller
git log --pretty=format:%s
git log --format=tformat:%s
git log --format='%ai|%aI|%at|%as|%cd'
git log --date=short --format=%ad
git log --date=iso
`,
	"ls-files-modes": `
write a.txt "1\n"
write d/b.txt "2\n"
git add .
git commit -q -m one
write a.txt "changed\n"
rm d/b.txt
write u.txt "u\n"
git ls-files -m
git ls-files -d
git ls-files -o
git ls-files -s
`,
	"status-subdir": `
write a.txt "1\n"
write d/b.txt "2\n"
git add .
git commit -q -m one
write a.txt "x\n"
write d/b.txt "y\n"
write d/c.txt "z\n"
git -C d status
git -C d status -s
git -C d diff --stat
`,
	"rename-status": `
write a.txt "a unique line\n"
git add .
git commit -q -m one
git mv a.txt b.txt
git status
git status -s
git diff --cached
git diff --cached --stat
git commit -q -m moved
git show --name-status --format=%s
`,
	"executable": `
write run.sh "echo\n"
git add .
git commit -q -m one
chmod+x run.sh
git status -s
git diff
git commit -q -am exec
git show --stat --format=%s
`,
	"amend-message-only": `
write a.txt "a\n"
git add .
git commit -q -m wrong
git commit --amend -q -m right
git log --oneline
`,
	"multi-message": `
write a.txt "a\n"
git add .
git commit -q -m subject -m "para one" -m "para two"
git log --format=%B
git log --format=%b
`,
	"checkout-new-file-untracked-in-way": `
write a.txt "a\n"
git add .
git commit -q -m one
git checkout -q -b other
write n.txt "tracked\n"
git add .
git commit -q -m n
git checkout -q main
write n.txt "untracked\n"
git checkout other
`,
	"delete-file-status": `
write a.txt "a\n"
write b.txt "b\n"
git add .
git commit -q -m one
rm a.txt
git status
git add -A
git status
git commit -q -m "delete a"
git show --stat --format=%s
`,
}

// scripts are all the scripts, by name.
var scripts = func() map[string]string {
	out := map[string]string{}
	for s, setup := range setups {
		for q, query := range queries {
			out["q-"+s+"-"+q] = setup + "\n" + query + "\n"
		}
	}
	for n, s := range handWritten {
		out[n] = s
	}
	return out
}()
