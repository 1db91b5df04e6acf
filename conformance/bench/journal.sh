#!/usr/bin/env bash
# Benchmarks the journal of replay-policy runs (conformance/bench/journalbench):
#
#   journal_overhead  a JavaScript run doing 1,000 small fs.writeFile under
#                     the replay policy (each write and its record commit in
#                     one transaction) vs under the fail policy (nothing
#                     journaled), p50 of Exec → Result; ratio = replay / fail
#                     (target ≤ 1.3)
#   replay_vs_live    the same writes, then a host-module call that SIGKILLs
#                     its process: a second process resumes the run and
#                     replays the writes from the journal; ratio = GetExec →
#                     that call in the second process / Exec → that call in
#                     the first (both processes warmed up) (target ≤ 0.5)
#
# Usage: conformance/bench/journal.sh [-n RUNS] [-reps CRASHES]
set -euo pipefail
cd "$(dirname "$0")/../.."
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	-n | -reps) args+=("$1" "$2"); shift 2 ;;
	*) echo "usage: $0 [-n RUNS] [-reps CRASHES]" >&2; exit 2 ;;
	esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/journalbench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "== $(go version), $(nproc) CPUs" >&2
go build -o "$work/journalbench" ./conformance/bench/journalbench
"$work/journalbench" -dir "$work" "${args[@]+"${args[@]}"}"
