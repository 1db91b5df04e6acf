// Seeded random query strings through querystring and URLSearchParams.
import qs from 'node:querystring';
let seed = 31337;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
const atoms = ['a', 'b', '=', '&', '+', '%20', '%', '%zz', '%E2%82%AC', 'é', ' ', '?', '#', 'x=y', '%3D', '%26'];
for (let i = 0; i < 80; i++) {
  const s = Array.from({ length: Math.floor(rand() * 8) }, () => pick(atoms)).join('');
  const parsed = qs.parse(s);
  const usp = new URLSearchParams(s);
  console.log(JSON.stringify(s), JSON.stringify(parsed), qs.stringify(parsed), usp.toString(), JSON.stringify([...usp]));
}
for (let i = 0; i < 30; i++) {
  const obj = {};
  for (let k = Math.floor(rand() * 4); k > 0; k--) obj[pick(atoms)] = rand() < 0.3 ? [pick(atoms), pick(atoms)] : pick(atoms);
  console.log(JSON.stringify(obj), qs.stringify(obj), new URLSearchParams(obj).toString(), qs.escape(pick(atoms) + pick(atoms)));
}
