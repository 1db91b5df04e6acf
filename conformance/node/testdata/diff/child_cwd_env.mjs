import { execSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

fs.mkdirSync("a/b", { recursive: true });
fs.writeFileSync("a/b/f.txt", "content\n");

const pwd = execSync("pwd", { cwd: "a/b", encoding: "utf8" }).trim();
console.log(path.relative(process.cwd(), pwd));
console.log(execSync("cat f.txt", { cwd: path.join("a", "b"), encoding: "utf8" }).trim());
console.log(execSync("ls", { cwd: new URL("file://" + process.cwd() + "/a"), encoding: "utf8" }).trim());

process.env.FROM_PARENT = "inherited";
console.log(execSync("echo $FROM_PARENT", { encoding: "utf8" }).trim());
console.log(JSON.stringify(execSync("echo \"[$FROM_PARENT][$ONLY]\"", { env: { ONLY: "given", PATH: process.env.PATH }, encoding: "utf8" })));
const env = spawnSync("sh", ["-c", "echo $X$Y"], { env: { X: "1", Y: "2", PATH: process.env.PATH }, encoding: "utf8" });
console.log(env.stdout.trim());

execSync("echo made > made.txt", { cwd: "a" });
console.log(fs.readFileSync("a/made.txt", "utf8").trim());
