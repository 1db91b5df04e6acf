// Seeded random URL strings (absolute and relative) through the WHATWG parser.
let seed = 99;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
const schemes = ['http:', 'https:', 'file:', 'ws:', 'foo:', 'HTTP:', 'mailto:', ''];
const seps = ['//', '/', '', '\\\\', '///'];
const hosts = ['example.com', 'EXAMPLE.com.', 'user:pw@h', '127.1', '0x10.0.0.1', '[::1]', 'h:8080', 'h:80', 'h:', 'a b', 'xn--nxasmq6b', 'bücher.de', ''];
const paths = ['', '/', '/a/b', '/./a/../b', '/%2e%2E/x', '/a b', '/é', '/a?b', '/a#b', '/x/./', '/..', '/a\\b', '/%zz', '/{}'];
const tails = ['', '?q=1', '?a b=c', '#f', '#a b', '?x#y', "?'", '?'];
const bases = ['http://base.com/dir/file?bq#bf', 'file:///home/u/x', 'foo://h/p', 'https://h'];
for (let i = 0; i < 150; i++) {
  const input = pick(schemes) + pick(seps) + pick(hosts) + pick(paths) + pick(tails);
  const base = rand() < 0.4 ? pick(bases) : undefined;
  let out;
  try { const u = new URL(input, base); out = [u.href, u.origin, u.host, u.pathname, u.search, u.hash].join(' | '); } catch (e) { out = e.code; }
  console.log(JSON.stringify(input), base || '-', '=>', out);
}
