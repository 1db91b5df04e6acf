import path from "node:path";
const b=[['/a/b.txt','.txt'],['.txt','.txt'],['a.b.c','c'],['/x/aaa','aaa'],['/x/aaa/','aaa'],['aaa/bbb','bbb'],['/a/.txt','.txt'],['file.js','.js'],['file.js/','.js'],['a','a'],['','x'],['/','x'],['//a//','a'],['abc','bc'],['abc','xbc'],['/a/b.txt','b.txt']];
for (const [p,e] of b) console.log(JSON.stringify([p,e]), JSON.stringify(path.basename(p,e)), JSON.stringify(path.basename(p)));
for (const p of ['a.b.c','.bashrc','a.','a','a/.b.c','..','...','.a.','a..','/a/b/','x/.','./','a.b/',''] ) console.log(JSON.stringify(p), JSON.stringify(path.extname(p)));
for (const p of ['a//b','/a/b/','//a','//','///a','a/','a','','/a','//a/b//']) console.log(JSON.stringify(p), JSON.stringify(path.dirname(p)));
for (const p of ['/home/u/file.tar.gz','rel/x','/','./a','a/','.a','//x']) console.log(JSON.stringify(path.parse(p)));
for (const p of ['./', './/', 'a/./', '../', '/..', 'a/..', 'a/../', './a/', '', '/']) console.log(JSON.stringify(p), JSON.stringify(path.normalize(p)));
for (const a of [['a', '..', '..'], ['/a', '../..'], ['', ''], ['a/', '/b/'], ['./', 'x']]) console.log(JSON.stringify(a), path.join(...a));
for (const [f, t] of [['/a/b', '/a/b/c'], ['/a/b/c', '/'], ['/', '/x/y'], ['/a/bc', '/a/b'], ['/a/b', '/a/bc']]) console.log(f, t, JSON.stringify(path.relative(f, t)));
