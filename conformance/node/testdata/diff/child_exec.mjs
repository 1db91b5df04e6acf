import { exec } from "node:child_process";
import { promisify } from "node:util";

const pexec = promisify(exec);

await new Promise((resolve) => exec("echo one; echo two >&2", (err, stdout, stderr) => {
  console.log("cb", err, JSON.stringify(stdout), JSON.stringify(stderr));
  resolve();
}));

const r = await pexec("printf 'x\\ny\\n'");
console.log("promisified", JSON.stringify(r));

try {
  await pexec("echo out; echo err >&2; exit 5");
} catch (e) {
  console.log("rejected", JSON.stringify(e.message), e.code, e.killed, e.signal, JSON.stringify(e.cmd));
  console.log("attached", JSON.stringify(e.stdout), JSON.stringify(e.stderr));
}

const buf = await pexec("echo bytes", { encoding: "buffer" });
console.log("buffer", Buffer.isBuffer(buf.stdout), buf.stdout.toString().trim());

await new Promise((resolve) => {
  const child = exec("exit 2", (err) => {
    console.log("exit 2", err.code, JSON.stringify(err.message));
    resolve();
  });
  console.log("child", typeof child.pid, typeof child.on);
});
