#!/usr/bin/env bash
# Benchmarks the JavaScript backend end to end (runtime Exec → Result, with
# the run recorded and its output stored in a workspace file) against a
# Node.js baseline measured in the same run.
#
# Prints one line per figure:
#   trivial_exec    a trivial module (cached transform) run through the
#                   runtime, vs node running vm.createContext +
#                   vm.runInContext of the same function in a loop;
#                   ratio = nook p50 / node p50 (lower is better; target ≤ 0.5)
#   trivial_exec_process  the trivial module in the process isolation tier
#                   (warm pool of worker processes); ratio = its p50 / the
#                   in-process trivial_exec p50 (target ≤ 1.5)
#   cold_ts_exec    a TypeScript module never seen before (esbuild transform
#                   + compile + run + record): p50 (target ≤ 1.5 ms)
#   writes_1000x1KiB a module doing 1,000 fs.writeFile of 1 KiB: runs/s
#
# Usage: conformance/bench/js.sh [-n RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=2000
if [ "${1:-}" = "-n" ]; then n="$2"; fi

if ! command -v node >/dev/null 2>&1; then
	echo "== installing nodejs" >&2
	sudo=""
	if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
	$sudo apt-get install -y nodejs >/dev/null 2>&1 || { $sudo apt-get update >/dev/null; $sudo apt-get install -y nodejs >/dev/null; }
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/jsbench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "== $(go version), node $(node --version), $(nproc) CPUs" >&2
go build -o "$work/jsbench" ./conformance/bench/jsbench

node_out="$(node -e '
const vm = require("vm");
const n = Number(process.argv[1]);
const src = "(function (x) { console.log(\"hi\"); return x.n + 1 })(input)";
const run = (i) => {
  const ctx = vm.createContext({ input: { n: i }, console: { log() {} } });
  return vm.runInContext(src, ctx);
};
for (let i = 0; i < 200; i++) run(i);
const d = [];
for (let i = 0; i < n; i++) {
  const t = process.hrtime.bigint();
  run(i);
  d.push(Number(process.hrtime.bigint() - t) / 1e3);
}
d.sort((a, b) => a - b);
console.log(`p50_us=${d[n >> 1].toFixed(1)} p90_us=${d[Math.floor(n * 0.9)].toFixed(1)}`);
' "$n")"
nook_out="$("$work/jsbench" -dir "$work" -n "$n")"
echo "$nook_out" >&2
echo "node_vm $node_out" >&2

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
nook_p50="$(echo "$nook_out" | grep '^trivial_exec ' | field p50_us)"
node_p50="$(echo "$node_out" | field p50_us)"
ratio="$(awk -v a="$nook_p50" -v b="$node_p50" 'BEGIN { printf "%.2f", a / b }')"
echo "trivial_exec ratio=$ratio nook_p50_us=$nook_p50 node_p50_us=$node_p50"
proc_p50="$(echo "$nook_out" | grep '^trivial_exec_process' | field p50_us)"
proc_ratio="$(awk -v a="$proc_p50" -v b="$nook_p50" 'BEGIN { printf "%.2f", a / b }')"
echo "trivial_exec_process ratio=$proc_ratio process_p50_us=$proc_p50 in_process_p50_us=$nook_p50"
echo "$nook_out" | grep '^cold_ts_exec'
echo "$nook_out" | grep '^writes_1000x1KiB'
