import { execSync, exec, spawn } from "node:child_process";

try {
  execSync("seq 1 10000", { maxBuffer: 100 });
} catch (e) {
  // (status and signal depend on whether seq was done before node killed it)
  console.log(JSON.stringify(e.message), e.code, e.errno);
}

await new Promise((resolve) => exec("seq 1 10000", { maxBuffer: 20 }, (err, stdout) => {
  console.log(err.name, JSON.stringify(err.message), err.code, JSON.stringify(err.cmd), JSON.stringify(stdout));
  resolve();
}));

try {
  execSync("sleep 3", { timeout: 100 });
} catch (e) {
  console.log(JSON.stringify(e.message), e.code, e.errno, e.status, e.signal);
}

await new Promise((resolve) => exec("sleep 3", { timeout: 100 }, (err) => {
  console.log(JSON.stringify(err.message), err.code, err.killed, err.signal);
  resolve();
}));

const k = spawn("sleep", ["3"]);
setTimeout(() => console.log("kill", k.kill()), 100);
await new Promise((resolve) => k.on("close", (code, signal) => {
  console.log("closed", code, signal, k.killed, k.exitCode, k.signalCode, k.kill());
  resolve();
}));
