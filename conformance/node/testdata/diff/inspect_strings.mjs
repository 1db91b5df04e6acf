import util from 'node:util';
console.log(util.inspect("it's"), util.inspect('say "hi"'), util.inspect('both \' and "'), util.inspect('all \' " `'));
console.log(util.inspect('tab\there\nnl\\bs\x00\x1b\x7f'), util.inspect('\u{1F600} é'));
console.log(['a\nb'], { 'k\n': 'v' }, [`x'y`]);
console.log(util.inspect('a'.repeat(20) + '\n' + 'b'.repeat(70)));
console.log(util.inspect(new String('boxed')), util.inspect(Object(1n)), util.inspect(Object(Symbol('q'))));
console.log(util.inspect(-0), util.inspect([-0]), util.inspect(0.1 + 0.2), util.inspect(123456789012345680000));
console.log(util.inspect(1234567.891, { numericSeparator: true }), util.inspect(10n ** 10n, { numericSeparator: true }));
