import { spawnSync } from "node:child_process";
import fs from "node:fs";

fs.mkdirSync("files");
for (const n of ["c.txt", "a.txt", "b.md"]) fs.writeFileSync("files/" + n, n + "\n");

const ls = spawnSync("ls", ["files"], { encoding: "utf8" });
console.log(ls.status, ls.signal, JSON.stringify(ls.stdout), JSON.stringify(ls.stderr));
console.log(ls.output.length, ls.output[0], typeof ls.pid);

const raw = spawnSync("cat", ["files/a.txt", "files/b.md"]);
console.log(Buffer.isBuffer(raw.stdout), JSON.stringify(raw.stdout.toString()));

const wc = spawnSync("wc", ["-l"], { input: "1\n2\n3\n", encoding: "utf8" });
console.log(wc.status, wc.stdout.trim());

const fail = spawnSync("sh", ["-c", "echo nope >&2; exit 9"], { encoding: "utf8" });
console.log(fail.status, JSON.stringify(fail.stderr), fail.error);

const cwd = spawnSync("ls", { cwd: "files", encoding: "utf8" });
console.log(JSON.stringify(cwd.stdout));

const sh = spawnSync("ls files | sort -r | head -n 2", { shell: true, encoding: "utf8" });
console.log(JSON.stringify(sh.stdout));

const ignored = spawnSync("echo", ["gone"], { stdio: "ignore" });
console.log(ignored.status, ignored.stdout, ignored.output);
