# needs: node
node -e 'console.log("hello", 1 + 2)'
node -e 'console.log(process.argv.slice(-2).join("+"))' a b
node -p '6 * 7'
node -p '"abc".toUpperCase()'
node -p 'JSON.stringify({a: [1, 2]})'
node -p '[1, 2, 3].map(x => x * 2)'
node -p '({ a: 1, b: "x", c: [true, null] })'
node -e 'process.exit(3)'; echo "rc=$?"
node -e 'throw new Error("boom")' 2>/dev/null; echo "rc=$?"
echo '{"n": 5}' | node -e 'let s = ""; process.stdin.on("data", d => s += d); process.stdin.on("end", () => console.log(JSON.parse(s).n * 2))'
FOO=bar node -e 'console.log(process.env.FOO)'
export BAR=baz; node -p 'process.env.BAR'
node -e 'require("fs").writeFileSync("out.txt", "written\n")'; cat out.txt
node -e 'console.log(require("fs").readFileSync("data/numbers.txt", "utf8").split("\n").filter(Boolean).map(Number).reduce((a, b) => a + b, 0))'
node -p 'require("path").join("a", "..", "b", "c.txt")'
node --input-type=module -e 'import { readFileSync } from "node:fs"; console.log(readFileSync("README.md", "utf8").split("\n")[0])'
x=$(node -p '1 + 1'); echo "x=$x"
node -e 'console.log([..."abc"].reverse().join(""))' | tr a-z A-Z
