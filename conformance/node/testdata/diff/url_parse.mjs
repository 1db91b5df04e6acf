const cases = [
  ['http://example.com'], ['HTTPS://Ex.COM:443/a/./b/../c?x=1 2#f g'], ['http://user:p@ss@h/'], ['http://h:0080/'], ['http://h:65536/'],
  ['http://[::1]:8080/p'], ['http://[2001:db8:0:0:1:0:0:1]/'], ['http://[::ffff:192.168.0.1]/'], ['http://0x7f.1/'], ['http://127.0.0.1.'],
  ['http://256.0.0.1/'], ['http://exa mple.com/'], ['http:/\\h\\a\\b'], ['http:h/p'], ['  http://h/ \n'], ['http://h/a%2fb/%2e%2E/c'],
  ['http://h/é/ü?é#é'], ['http://h/?a=\'b\'&c="d"'], ['ws://h:80/'], ['wss://h:443/'], ['ftp://h:21/'], ['foo://h:80/p'],
  ['mailto:user@example.com?subject=hi'], ['data:text/plain,hello world'], ['javascript:alert(1)'], ['foo:/a/../b'], ['foo://h'],
  ['foo:///x'], ['file:///C:/x/../y'], ['file://localhost/etc/hosts'], ['file://host/share/f'], ['file:/a/b'], ['blob:https://a.com/uuid'],
  ['sc://ñ.com/'], ['http://ñ.com/'], ['http://a.com/{}|^`'], ['http://h/?q#a#b'], ['http://h#'], ['http://h?'],
  ['?x', 'http://h/a/b?y#z'], ['#f', 'http://h/a?q'], ['', 'http://h/a?q#f'], ['//o/p', 'https://h/'], ['/abs', 'http://h/a/b'],
  ['../../../x', 'http://h/a/b/c'], ['./', 'http://h/a/b'], ['..', 'http://h/a/b/'], ['x', 'file:///a/b'], ['x', 'mailto:a'],
  ['#y', 'mailto:a'], ['http:rel', 'http://h/a/'], ['https:rel', 'http://h/a/'], ['\\\\x\\y', 'http://h/'], ['not a url'], ['http://'],
  ['http://h:port/'], ['', undefined], ['http://1.2.3.4.5/'], ['http://[1::2::3]/'],
];
for (const [input, base] of cases) {
  try {
    const u = base === undefined ? new URL(input) : new URL(input, base);
    console.log(JSON.stringify(input), '->', u.href, '|', u.origin, u.host, JSON.stringify(u.pathname), JSON.stringify(u.search), JSON.stringify(u.hash));
  } catch (e) {
    console.log(JSON.stringify(input), 'throws', e.code, e.message);
  }
}
const u = new URL('http://a.com/p?x=1');
u.protocol = 'https'; u.host = 'b.org:8443'; u.pathname = '/new path/../q'; u.search = 'k=v w'; u.hash = 'h h';
console.log(u.href);
u.port = '443'; u.username = 'me'; u.password = 'p:w'; u.hostname = 'C.org'; u.protocol = 'foo';
console.log(u.href, u.port);
u.searchParams.set('k', 'new value&'); u.searchParams.append('z', '✓');
console.log(u.href, u.search);
u.search = '?a=1&a=2'; console.log(u.searchParams.getAll('a'), [...u.searchParams.keys()]);
u.href = 'http://z/'; console.log(u.searchParams.size, u.toString());
try { u.href = 'bad'; } catch (e) { console.log(e.code); }
const sp = new URLSearchParams({ b: '2', a: '1', 'c d': 'e+f' });
sp.sort(); console.log(sp.toString(), sp.has('a', '1'), sp.has('a', '2'));
sp.delete('a'); sp.forEach((v, k) => console.log('forEach', k, v));
console.log(new URLSearchParams('a=%zz&b=%E2%82%AC&c=+&d').toString(), [...new URLSearchParams('x=1&&y')]);
console.log(sp, new URLSearchParams(), new URL('http://x/?a=b'));
console.log(String(new URL('http://h').searchParams), URL.canParse('/p', 'http://h'), URL.canParse('http://[::1'));
