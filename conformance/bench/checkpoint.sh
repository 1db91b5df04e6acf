#!/usr/bin/env bash
# Benchmarks checkpoints, restore and fork through the nook command line on
# a real tree (default: $(go env GOROOT)/src), in one run:
#
#   checkpoint_vs_cp  the first checkpoint of the imported tree (every node
#                     recorded) vs cp -r of the same host tree; ratio = nook /
#                     cp (each a whole process, as a user runs them)
#   restore_100       restore of the checkpoint after 100 files changed
#   fork              nook fork of the checkpoint: time and the new file's size
#   storage_100x10    bytes the database grew by over 100 checkpoints with 10
#                     files changed (by a shell run) before each (the 100 run
#                     records included)
#
# Usage: conformance/bench/checkpoint.sh [SRC]
set -euo pipefail
cd "$(dirname "$0")/../.."
src="${1:-$(go env GOROOT)/src}"
work="$(mktemp -d "${TMPDIR:-/tmp}/checkpointbench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "== $(go version), $(nproc) CPUs, tree $src ($(find "$src" -type f | wc -l) files, $(du -sh "$src" | cut -f1))" >&2
go build -o "$work/nook" ./cmd/nook
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
for f in "${files[@]}"; do echo changed | nook put "$f"; done
echo "restore_100 $(ms nook restore base)ms ($(nook --json diff base | grep -o '"op"' | wc -l) differences after)"

f0=$(ms nook fork base "$work/fork.db")
echo "fork ${f0}ms $(size "$work/fork.db") bytes (source $(size "$NOOK_DB") bytes)"

before=$(size "$NOOK_DB")
for i in $(seq 1 100); do
	nook exec --backend shell -e "for j in 0 1 2 3 4 5 6 7 8 9; do echo $i > c\$j.txt; done" >/dev/null
	nook checkpoint "c$i" >/dev/null
done
after=$(size "$NOOK_DB")
echo "storage_100x10 $((after - before)) bytes ($(((after - before) / 100)) per checkpoint)"
