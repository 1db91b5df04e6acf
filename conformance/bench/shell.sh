#!/usr/bin/env bash
# Benchmarks the shell backend end to end (runtime Exec → Result on a
# workspace file, the run recorded) against just-bash (the TypeScript bash
# emulator, installed from npm into a scratch directory and run by node,
# Bash.exec on a fresh in-memory tree per run) and GNU bash (bash -c over a
# host directory, real processes), on the same scripts of the differential
# suite, each run from the suite's seed tree (seeding is not timed).
#
# Prints one line per figure, "NAME ratio=X key=value ...":
#   script_NAME       per script: ratio = nook p50 / just-bash p50 (lower is
#                     better), with the three p50s and exit codes
#   shell_vs_justbash geometric mean over the scripts of nook / just-bash
#                     (target ≤ 0.5)
#   shell_vs_bash     geometric mean of nook / GNU bash
#
# Usage: conformance/bench/shell.sh [-n RUNS]
# Environment: KEEP=1 keeps the scratch directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=20
if [ "${1:-}" = "-n" ]; then n="$2"; fi

scripts=(
	001-cat 002-pipeline-count 003-grep-r 008-sed-subst 013-find-basic 019-loops
	020-while-read 023-arith 033-sort 035-cut 044-arrays 112-awk-fields 113-awk-sum-avg
	114-awk-count-pipeline 115-awk-arrays 117-awk-patterns 118-awk-gsub 119-awk-string-funcs
	133-diff-normal 134-diff-unified 135-diff-recursive 140-gzip-roundtrip 142-tar-create-list
	143-tar-extract 146-mixed-models
)

for t in node npm bash; do
	command -v "$t" >/dev/null 2>&1 || { echo "shell.sh: $t is required" >&2; exit 1; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/shellbench.XXXXXX")"
cleanup() {
	if [ "${KEEP:-}" = 1 ]; then echo "== kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "== $(go version), node $(node --version), $(bash --version | sed -n 1p), $(nproc) CPUs" >&2
go build -o "$work/shellbench" ./conformance/bench/shellbench
: > "$work/list"
for s in "${scripts[@]}"; do echo "$PWD/runtime/shell/testdata/diff/$s.sh" >> "$work/list"; done
"$work/shellbench" -seed "$work/seed"

echo "== installing just-bash from npm" >&2
mkdir -p "$work/jb"
(cd "$work/jb" && npm init -y >/dev/null 2>&1 && npm install --no-audit --no-fund just-bash >/dev/null 2>&1)
echo "== just-bash $(cd "$work/jb" && node -p 'JSON.parse(require("fs").readFileSync("node_modules/just-bash/package.json", "utf8")).version')" >&2

cat > "$work/jb/run.mjs" <<'JS'
import { Bash } from "just-bash";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, basename } from "node:path";
const [list, seedDir, runs] = process.argv.slice(2);
const files = {};
const walk = (d, rel) => {
  for (const e of readdirSync(d)) {
    const p = join(d, e), r = rel ? rel + "/" + e : e;
    if (statSync(p).isDirectory()) walk(p, r); else files["/work/" + r] = readFileSync(p, "utf8");
  }
};
walk(seedDir, "");
for (const s of readFileSync(list, "utf8").split("\n").filter(Boolean)) {
  const src = readFileSync(s, "utf8");
  const d = [];
  let code = 0;
  for (let i = -2; i < Number(runs); i++) {
    const bash = new Bash({ files, cwd: "/work", env: { LC_ALL: "C", TZ: "UTC", HOME: "/work" } });
    const t = process.hrtime.bigint();
    const r = await bash.exec(src);
    const us = Number(process.hrtime.bigint() - t) / 1e3;
    if (i >= 0) d.push(us);
    code = r.exitCode;
  }
  d.sort((a, b) => a - b);
  console.log(`script ${basename(s, ".sh")} p50_us=${d[d.length >> 1].toFixed(1)} code=${code}`);
}
JS

echo "== nook" >&2
"$work/shellbench" -mode nook -dir "$work" -scripts "$work/list" -n "$n" > "$work/nook.txt"
echo "== just-bash" >&2
(cd "$work/jb" && node run.mjs "$work/list" "$work/seed" "$n") > "$work/jb.txt"
echo "== GNU bash" >&2
"$work/shellbench" -mode bash -dir "$work" -scripts "$work/list" -n "$n" > "$work/bash.txt"

awk '
FNR == 1 { f++ }
{ name = $2; sub(/p50_us=/, "", $3); sub(/code=/, "", $4); t[f, name] = $3; c[f, name] = $4; if (f == 1) order[++k] = name }
END {
	for (i = 1; i <= k; i++) {
		s = order[i]
		r = t[1, s] / t[2, s]; rb = t[1, s] / t[3, s]
		printf "script_%s ratio=%.2f nook_p50_us=%s justbash_p50_us=%s bash_p50_us=%s codes=%s/%s/%s\n", s, r, t[1, s], t[2, s], t[3, s], c[1, s], c[2, s], c[3, s]
		lj += log(r); lb += log(rb)
		if (c[1, s] == c[3, s]) same++
		if (c[2, s] == c[3, s]) jsame++
	}
	printf "shell_vs_justbash ratio=%.2f scripts=%d\n", exp(lj / k), k
	printf "shell_vs_bash ratio=%.2f scripts=%d nook_exit_codes_as_bash=%d justbash_exit_codes_as_bash=%d\n", exp(lb / k), k, same, jsame
}' "$work/nook.txt" "$work/jb.txt" "$work/bash.txt"
