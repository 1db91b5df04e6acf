import { spawn, spawnSync, execFileSync, execFile, execSync } from "node:child_process";

const show = (e) => console.log(JSON.stringify([e.message, e.code, e.errno, e.syscall, e.path, e.spawnargs]));

const c = spawn("no-such-program-xyz", ["arg one"]);
const events = [];
c.on("spawn", () => events.push("spawn"));
c.on("exit", () => events.push("exit"));
await new Promise((resolve) => {
  c.on("error", (e) => { show(e); events.push("error"); });
  c.on("close", (code, signal) => { events.push("close " + code + " " + signal); resolve(); });
});
// (nook cannot know before the shell answers that the program is missing:
// its child gets a pid and a 'spawn' event first.)
console.log(events.filter((e) => e !== "spawn").join(","), c.exitCode);

const s = spawnSync("no-such-program-xyz");
show(s.error);
console.log(s.status, s.signal, s.output, s.pid, s.stdout);

try { execFileSync("no-such-program-xyz", ["x"]); } catch (e) { show(e); console.log(e.status, e.stdout); }

await new Promise((resolve) => execFile("no-such-program-xyz", (err, so, se) => {
  show(err);
  console.log(JSON.stringify(err.cmd), JSON.stringify(so), JSON.stringify(se));
  resolve();
}));

try { execSync("no-such-program-xyz", { stdio: "pipe" }); } catch (e) {
  console.log("shell says", e.status, e.signal, e.message.split("\n")[0]);
}
console.log(execSync("no-such-program-xyz 2>/dev/null; echo status $?", { encoding: "utf8" }).trim());
