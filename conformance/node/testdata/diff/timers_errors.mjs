for (const f of [() => setTimeout('x'), () => setInterval(null), () => setImmediate(5), () => queueMicrotask({}), () => setTimeout(undefined, 5), () => setTimeout(Symbol.iterator)]) {
  try { f(); } catch (e) { console.log(e.name, e.code, e.message); }
}
const t = setTimeout((a, b) => console.log('args', a, b), 1, 'one', 'two');
const i = setInterval(function () { console.log('interval this is timer', this === i); clearInterval(i); }, 1);
const im = setImmediate(function (x) { console.log('immediate arg', x, this === im); }, 42);
clearTimeout(undefined); clearTimeout(null); clearTimeout('nope'); clearInterval({});
console.log(typeof t.ref(), t.unref() === t, typeof setTimeout(() => {}, 1)[Symbol.toPrimitive]());
