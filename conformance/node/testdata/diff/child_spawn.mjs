import { spawn } from "node:child_process";

function run(cmd, args, input) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args);
    let out = "";
    let err = "";
    let spawned = false;
    child.on("spawn", () => { spawned = true; });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { err += d; });
    child.on("close", (code, signal) => resolve({ spawned, code, signal, out, err, exitCode: child.exitCode }));
    if (input !== undefined) child.stdin.end(input);
  });
}

console.log(JSON.stringify(await run("sort", [], "pear\napple\nfig\n")));
console.log(JSON.stringify(await run("sh", ["-c", "echo to-out; echo to-err >&2; exit 4"])));
console.log(JSON.stringify(await run("grep", ["-c", "a"], "a\nb\na\n")));
console.log(JSON.stringify(await run("echo", ["quoted 'arg'", "$HOME", "*"])));

const piped = spawn("tr", ["a-z", "A-Z"]);
const chunks = [];
piped.stdout.on("data", (d) => chunks.push(d));
piped.stdin.write("hello ");
piped.stdin.write("world\n");
piped.stdin.end();
const code = await new Promise((r) => piped.on("close", r));
console.log(code, Buffer.concat(chunks).toString());

const shell = spawn("echo $((6 * 7)) | cat", { shell: true });
shell.stdout.on("data", (d) => console.log("shell", d.toString().trim()));
await new Promise((r) => shell.on("close", r));
