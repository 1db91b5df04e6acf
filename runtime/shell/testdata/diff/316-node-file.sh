# needs: node
cat > sum.js <<'EOF'
const fs = require('fs');
const [file] = process.argv.slice(2);
const nums = fs.readFileSync(file, 'utf8').trim().split('\n').map(Number);
console.log(`count=${nums.length} sum=${nums.reduce((a, b) => a + b, 0)}`);
EOF
node sum.js data/numbers.txt
cat > csv.mjs <<'EOF'
import { readFileSync } from 'node:fs';
const rows = readFileSync(process.argv[2], 'utf8').trim().split('\n').slice(1).map(l => l.split(','));
for (const [id, name, age] of rows) if (+age > 28) console.log(id, name);
EOF
node csv.mjs data/users.csv
mkdir -p lib && printf 'exports.greet = n => `hi ${n}`;\n' > lib/greet.js
printf 'const { greet } = require("./lib/greet");\nconsole.log(greet(process.argv[2]));\n' > main.js
node main.js bob
node ./main.js "carol d"
printf 'console.log("from stdin program")\n' | node
node - < main.js
node missing.js 2>/dev/null; echo "rc=$?"
printf 'process.stdout.write("no newline")' > nn.js; node nn.js; echo
printf 'process.exitCode = 5; console.log("set")\n' > code.js; node code.js; echo "rc=$?"
for f in data/*.txt; do node -e 'console.log(process.argv.at(-1).length)' "$f"; done
printf 'const fs = require("fs");\nfs.mkdirSync("gen", { recursive: true });\nfor (let i = 0; i < 3; i++) fs.writeFileSync(`gen/${i}.txt`, String(i * i));\n' > gen.js
node gen.js && cat gen/*.txt && echo
ls gen
