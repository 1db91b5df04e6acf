import { execSync } from "node:child_process";
import fs from "node:fs";

fs.writeFileSync("words.txt", "delta\nalpha\ncharlie\nbravo\nalpha\n");
const run = (c) => execSync(c, { encoding: "utf8" });

console.log(JSON.stringify(run("sort words.txt | uniq")));
console.log(JSON.stringify(run("sort words.txt | uniq -c | sort -rn | head -n 1").trim().split(/\s+/)));
console.log(run("grep -c a words.txt").trim());
console.log(run("wc -l < words.txt").trim());
console.log(JSON.stringify(run("cat words.txt | tr a-z A-Z | head -n 2")));
run("sort -u words.txt > sorted.txt && echo done >> sorted.txt");
console.log(JSON.stringify(fs.readFileSync("sorted.txt", "utf8")));
console.log(JSON.stringify(run("test -f sorted.txt && echo yes || echo no")));
console.log(JSON.stringify(run("x=3; if [ $x -gt 2 ]; then echo big; else echo small; fi")));
console.log(JSON.stringify(run("printf '%s\\n' one two | while read w; do echo \"<$w>\"; done")));
