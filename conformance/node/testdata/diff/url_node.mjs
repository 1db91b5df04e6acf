import url, { fileURLToPath, pathToFileURL, URL } from 'node:url';
console.log(fileURLToPath('file:///tmp/x%20y.txt'), pathToFileURL('/tmp/a b#c.txt').href);
try { fileURLToPath('http://x/y'); } catch (e) { console.log(e.code); }
console.log(url.format(new URL('http://a.com/b?c=d')), url.format({ protocol: 'https', hostname: 'h.com', pathname: '/p', query: { a: 1 } }));
const parsed = url.parse('http://user@host.com:81/p/q?x=1#frag');
console.log(parsed.protocol, parsed.auth, parsed.host, parsed.port, parsed.pathname, parsed.search, parsed.query, parsed.hash, parsed.path);
console.log(url.parse('/just/path?q=1', true).query, url.resolve('http://a/b/c', '../d'), url.resolve('/one/two', 'three'));
console.log(url.domainToASCII('español.com'), url.domainToUnicode('xn--espaol-zwa.com'));
