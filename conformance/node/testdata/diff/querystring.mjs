import qs from 'node:querystring';
console.log(qs.parse('a=1&b=2&a=3&c=&d&e=x%20y+z'));
console.log(qs.stringify({ a: [1, 2], b: 'x y', c: '', d: null, e: undefined, f: true, g: 'é&=' }));
console.log(qs.parse('k:v;k2:v2', ';', ':'), qs.stringify({ a: 1, b: 2 }, ';', ':'));
console.log(qs.escape('a b&c/é'), qs.unescape('a%20b%zz'), qs.decode === qs.parse, qs.encode === qs.stringify);
console.log(qs.parse('a=1&b=2&c=3', null, null, { maxKeys: 2 }), qs.parse(''), qs.parse('%E2%82%AC=%E2%82%AC'));
console.log(qs.stringify({ n: 5, o: { x: 1 }, arr: [] }), qs.parse('a[b]=1&a[c]=2'));
