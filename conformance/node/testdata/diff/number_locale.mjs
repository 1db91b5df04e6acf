const xs = [1234567.891, 0.5, 1e21, -1234, 1.005, 0.0001234, 123.456789, -0, NaN, Infinity, -Infinity, 2.5, 1e-7, 999.9996, 12345678901234567890, 0.045, 1.45, -0.5];
for (const x of xs) {
  console.log(x, JSON.stringify([x.toLocaleString(), x.toLocaleString('en-US', { maximumFractionDigits: 2 }), x.toLocaleString(undefined, { minimumFractionDigits: 2 }),
    x.toLocaleString('en', { style: 'percent' }), x.toLocaleString('en-US', { style: 'currency', currency: 'USD' }), x.toLocaleString(undefined, { useGrouping: false }),
    x.toLocaleString(undefined, { minimumIntegerDigits: 3 }), x.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })]));
}
console.log((5n).toLocaleString(), (12345678901234567890n).toLocaleString(), (-1000n).toLocaleString(), (12).toLocaleString('en-US', { style: 'currency', currency: 'EUR' }), (12.5).toLocaleString('en-US', { style: 'currency', currency: 'JPY' }));
console.log([1000, 2000.5].toLocaleString(), new Number(1e6).toLocaleString(), `${(42195).toLocaleString()} m`);
try { (1).toLocaleString('en', { maximumFractionDigits: 101 }); } catch (e) { console.log(e.name, e.message); }
