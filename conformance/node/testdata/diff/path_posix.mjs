import path from 'node:path';
console.log(path.join('/a/b', '../c', './d'), path.join('a', '', 'b/'), path.join(), path.join('..', '..', 'x'));
console.log(path.normalize('/a//b/../c/.'), path.normalize('./x/../../y/'), path.normalize(''), path.normalize('//a'));
console.log(path.dirname('/a/b/c'), path.dirname('a'), path.dirname('/'), path.dirname('/a/b/'), path.dirname('a//b'));
console.log(path.basename('/a/b.txt'), path.basename('/a/b.txt', '.txt'), path.basename('/a/b/'), path.basename('.txt', '.txt'), path.basename('a.b.c', 'c'));
console.log(path.extname('a.b.c'), path.extname('.bashrc'), path.extname('a.'), path.extname('a'), path.extname('a/.b.c'), path.extname('..'));
console.log(path.parse('/home/u/file.tar.gz'), path.parse('rel/x'), path.parse('/'));
console.log(path.format({ dir: '/x', base: 'y.z' }), path.format({ root: '/', name: 'n', ext: '.e' }), path.format({ name: 'n', ext: 'e' }));
console.log(path.relative('/a/b/c', '/a/d'), path.relative('/a', '/a'), path.relative('/a/b', '/a/b/c/d'), path.isAbsolute('/x'), path.isAbsolute('x'));
console.log(path.resolve('/a', 'b', '../c'), path.resolve('/x', '/y', 'z'), path.sep, path.delimiter, path.posix === path.posix.posix);
console.log(path.posix.join('a', 'b'), typeof path.win32.join, path.toNamespacedPath('/a'));
try { path.join(1); } catch (e) { console.log(e.code, e.message); }
