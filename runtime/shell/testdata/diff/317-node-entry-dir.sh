# needs: node
mkdir -p lib app && printf 'exports.greet = n => `hi ${n}`;\n' > lib/greet.js
printf 'const { greet } = require("../lib/greet");\nconsole.log(greet("eve"));\n' > app/main.js
node app/main.js
(cd app && node main.js)
(cd lib && node ../app/main.js)
