import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";

console.log(JSON.stringify(execFileSync("printf", ["%s-%s\\n", "a", "b c"], { encoding: "utf8" })));
console.log(JSON.stringify(execFileSync("grep", ["-n", "x"], { input: "ax\nb\nxc\n", encoding: "utf8" })));

try {
  execFileSync("grep", ["zzz"], { input: "abc\n", stdio: "pipe" });
} catch (e) {
  console.log(JSON.stringify(e.message), e.status, e.signal, JSON.stringify(String(e.stdout)));
}

await new Promise((resolve) => execFile("echo", ["a", "b"], (err, stdout, stderr) => {
  console.log("cb", err, JSON.stringify(stdout), JSON.stringify(stderr));
  resolve();
}));

const { stdout } = await promisify(execFile)("ls", ["-a", "."], { encoding: "utf8" });
console.log("listed", stdout.split("\n").includes("child_execfile.mjs"));

try {
  await promisify(execFile)("sh", ["-c", "echo o; exit 3"]);
} catch (e) {
  console.log(JSON.stringify(e.message), e.code, e.killed, e.signal, JSON.stringify(e.cmd), JSON.stringify(e.stdout));
}
