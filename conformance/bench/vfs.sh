#!/usr/bin/env bash
# Benchmarks the vfs package against host baselines measured in the same run
# (ripgrep, cp -r, os.WriteFile) over a copy of Go's own source tree.
#
# Prints one line per figure, "NAME ratio=X key=value ...":
#   import_mbps           import of the corpus with vfs.Import (what `nook
#                         import` runs); ratio = nook MB/s / cp -r MB/s (higher is
#                         better)
#   find_test_files       Find **/*_test.go vs rg --files -g '*_test.go';
#                         ratio = nook time / rg time (lower is better)
#   small_writes_per_sec  4 KiB WriteFile to distinct paths for ~2 s vs as
#                         many os.WriteFile (no fsync); ratio = nook rate /
#                         host rate (higher is better)
#   grep_*                Grep (count mode, every page) vs rg -c, median of
#                         3 warm runs each; ratio = nook time / rg time
#                         (lower is better); counts_agree compares the
#                         per-file match counts
#   grep_peak_rss_mib     peak RSS of the process that ran the grep figures
#
# Usage: conformance/bench/vfs.sh [--profile FIGURE]
#   --profile FIGURE  also write a CPU profile of FIGURE's nook side and print
#                     its top 25 (cumulative)
# Environment: KEEP=1 keeps the scratch directory.
set -euo pipefail

cd "$(dirname "$0")/../.."

profile=""
if [ "${1:-}" = "--profile" ]; then
	profile="${2:?--profile needs a figure name}"
fi

if ! command -v rg >/dev/null 2>&1; then
	echo "== installing ripgrep" >&2
	sudo=""
	if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
	if ! $sudo apt-get install -y ripgrep >/dev/null 2>&1; then
		$sudo apt-get update >/dev/null
		$sudo apt-get install -y ripgrep >/dev/null
	fi
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/vfsbench.XXXXXX")"
cleanup() {
	if [ "${KEEP:-}" = 1 ]; then
		echo "== kept $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

echo "== $(go version), $(rg --version | sed -n 1p), $(nproc) CPUs" >&2
echo "== copying $(go env GOROOT)/src" >&2
cp -r "$(go env GOROOT)/src" "$work/host"
echo "== building vfsbench" >&2
go build -o "$work/vfsbench" ./conformance/bench/vfsbench

bench=("$work/vfsbench" -db "$work/ws.db" -src "$work/host" -tmp "$work")
"${bench[@]}" -phase write
# A process of its own, so that its peak RSS is the grep phase's.
"${bench[@]}" -phase grep

if [ -n "$profile" ]; then
	echo "== profiling $profile" >&2
	case "$profile" in
	grep_*) args=(-phase grep) ;;
	import_mbps) args=(-phase write -db "$work/ws-profile.db") ;;
	*) args=(-phase write) ;; # on the imported workspace
	esac
	"${bench[@]}" "${args[@]}" -only "$profile" -cpuprofile "$work/$profile.pprof" >&2
	go tool pprof -top -cum -nodecount=25 -hide '^main\.|^runtime\.main$' \
		"$work/vfsbench" "$work/$profile.pprof" >&2
fi
