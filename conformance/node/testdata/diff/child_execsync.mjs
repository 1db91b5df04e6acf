import { execSync } from "node:child_process";

const out = execSync("echo hi");
console.log(Buffer.isBuffer(out), JSON.stringify(out.toString()));
console.log(JSON.stringify(execSync("printf '%s|%s\\n' a 'b c'", { encoding: "utf8" })));
console.log(JSON.stringify(execSync("cat", { input: "from stdin\n", encoding: "utf8" })));
console.log(JSON.stringify(execSync("true", { encoding: "utf8" })));
try {
  execSync("echo partial; echo bad thing >&2; exit 3", { stdio: "pipe" });
} catch (e) {
  console.log(e instanceof Error, JSON.stringify(e.message));
  console.log(e.status, e.signal, typeof e.pid, e.output.length, e.output[0]);
  console.log(JSON.stringify(String(e.stdout)), JSON.stringify(String(e.stderr)));
}
try {
  execSync("exit 42", { stdio: "pipe" });
} catch (e) {
  console.log(JSON.stringify(e.message), e.status);
}
const lines = execSync("for i in 1 2 3; do echo line $i; done", { encoding: "utf8" });
console.log(lines.trim().split("\n").length, JSON.stringify(lines));
