package js_test

import "testing"

func TestFSSmoke(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/a.txt", "hello")
	r := e.ok(spec{src: `
import fs from "node:fs";
import { readFile } from "node:fs/promises";
export default async function () {
  const a = fs.readFileSync("a.txt", "utf8");
  const b = (await readFile("/workspace/a.txt")).toString();
  fs.writeFileSync("b.txt", "x");
  let code;
  try { fs.readFileSync("nope"); } catch (e) { code = [e.code, e.message, e.path, e.syscall, e.errno]; }
  return { a, b, code, list: fs.readdirSync(".") };
}`})
	t.Log(r.value(), r.stderr)
}
