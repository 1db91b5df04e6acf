const u = new URL('https://user:pw@example.com:8080/p/a/t/h?query=string&a=1#hash');
console.log(u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin);
u.searchParams.append('b', 'two words'); u.hash = ''; u.port = '443';
console.log(u.toString(), JSON.stringify(u));
console.log(new URL('../x?y#z', 'http://h/a/b/c').href, new URL('//other/p', 'https://h/').href);
console.log(new URL('HTTP://EXAMPLE.com/%7Efoo/./bar/../baz').href, new URL('http://h:80/').port, new URL('file:///tmp/a b').pathname);
try { new URL('not a url'); } catch (e) { console.log(e.code, e.name); }
console.log(URL.canParse ? URL.canParse('http://x') : 'n/a', URL.canParse ? URL.canParse('nope') : 'n/a');
const p = new URLSearchParams('a=1&b=2&a=3');
console.log(p.get('a'), p.getAll('a'), p.has('b'), p.toString(), [...p.keys()], p.size);
p.set('a', 'x'); p.delete('b'); p.append('c', 'é &'); p.sort();
console.log(p.toString(), [...p], Object.fromEntries(new URLSearchParams({ k: 'v', n: 1 })));
console.log(new URLSearchParams([['x', '1'], ['y', '2']]).toString(), new URLSearchParams('?q=a+b%20c').get('q'));
