import { spawnSync, execSync } from "node:child_process";

for (const n of [0, 1, 2, 7, 126, 255]) {
  const r = spawnSync("sh", ["-c", `echo code ${n} >&2; exit ${n}`], { encoding: "utf8" });
  console.log(n, r.status, r.signal, JSON.stringify(r.stderr));
}
const both = spawnSync("sh", ["-c", "echo a; echo b >&2; echo c"], { encoding: "utf8" });
console.log(JSON.stringify(both.stdout), JSON.stringify(both.stderr));

const merged = execSync("(echo x; echo y >&2) 2>&1", { encoding: "utf8" });
console.log(JSON.stringify(merged));

try {
  execSync("false", { stdio: "pipe" });
} catch (e) {
  console.log(JSON.stringify(e.message), e.status);
}
const r = spawnSync("false");
console.log(r.status, r.error);
const t = spawnSync("true");
console.log(t.status, JSON.stringify(t.stdout.toString()));
