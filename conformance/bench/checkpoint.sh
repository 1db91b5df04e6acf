#!/usr/bin/env bash
# Benchmarks checkpoints, restore and fork through the nook command line on
# a real tree (default: $(go env GOROOT)/src), in one run:
#
#   checkpoint_vs_cp  the first checkpoint of the imported tree (every node
#                     recorded) vs cp -r of the same host tree; ratio = nook /
#                     cp (each a whole process, as a user runs them)
#   restore_100       restore of the checkpoint after 100 files changed, and
#                     how many names it compared (of the tree's); with BASE
#                     set to a git revision, the same restore by nook built
#                     from that revision too, and the ratio new / base
#   fork              nook fork of the checkpoint: time and the new file's size
#   storage_100x10    bytes the database grew by over 100 checkpoints with 10
#                     files changed (by a shell run) before each (the 100 run
#                     records included)
#
# Usage: [BASE=REV] conformance/bench/checkpoint.sh [SRC]
set -euo pipefail
cd "$(dirname "$0")/../.."
src="${1:-$(go env GOROOT)/src}"
work="$(mktemp -d "${TMPDIR:-/tmp}/checkpointbench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "== $(go version), $(nproc) CPUs, tree $src ($(find "$src" -type f | wc -l) files, $(du -sh "$src" | cut -f1))" >&2
go build -o "$work/nook" ./cmd/nook
if [ -n "${BASE:-}" ]; then
	mkdir "$work/base"
	git archive "$BASE" | tar -x -C "$work/base"
	(cd "$work/base" && go build -o "$work/nook-base" ./cmd/nook)
fi
export NOOK_DB="$work/ws.db"
nook() { "$work/nook" "$@"; }
ms() { # run a command, print its wall time in ms
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}
size() { # bytes of the database with its WAL
	local n=0
	for f in "$@" "$1-wal"; do [ -f "$f" ] && n=$((n + $(stat -c %s "$f"))); done
	echo "$n"
}

nook import "$src" /src >/dev/null
ck=$(ms nook checkpoint base)
cp=$(ms cp -r "$src" "$work/copy")
echo "checkpoint_vs_cp nook=${ck}ms cp=${cp}ms ratio=$(awk "BEGIN{printf \"%.2f\", $ck/$cp}")"

mapfile -t files < <(nook find '**/*.go' --path /src | head -100)
change() { for f in "${files[@]}"; do echo "changed $1" | nook put "$f"; done; }
change 1
t0=$(date +%s%N)
out=$(nook --json restore base)
r1=$((($(date +%s%N) - t0) / 1000000))
echo "restore_100 ${r1}ms (compared $(echo "$out" | grep -o '"compared":[0-9]*' | cut -d: -f2) names of $(nook --json checkpoints | grep -o '"entries":[0-9]*' | head -1 | cut -d: -f2); $(nook --json diff base | grep -o '"op"' | wc -l) differences after)"
if [ -n "${BASE:-}" ]; then
	change 2
	r0=$(ms "$work/nook-base" restore base)
	echo "restore_100_base ${r0}ms (nook at $BASE; $(nook --json diff base | grep -o '"op"' | wc -l) differences after) ratio=$(awk "BEGIN{printf \"%.3f\", $r1/$r0}")"
fi

f0=$(ms nook fork base "$work/fork.db")
echo "fork ${f0}ms $(size "$work/fork.db") bytes (source $(size "$NOOK_DB") bytes)"

before=$(size "$NOOK_DB")
for i in $(seq 1 100); do
	nook exec --backend shell -e "for j in 0 1 2 3 4 5 6 7 8 9; do echo $i > c\$j.txt; done" >/dev/null
	nook checkpoint "c$i" >/dev/null
done
after=$(size "$NOOK_DB")
echo "storage_100x10 $((after - before)) bytes ($(((after - before) / 100)) per checkpoint)"
