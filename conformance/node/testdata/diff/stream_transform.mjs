import { Transform, PassThrough, pipeline, Readable, Writable } from 'node:stream';
const split = new Transform({
  readableObjectMode: true,
  transform(chunk, enc, cb) {
    this.buf = (this.buf || '') + chunk;
    const parts = this.buf.split(',');
    this.buf = parts.pop();
    for (const p of parts) this.push(p);
    cb();
  },
  flush(cb) { if (this.buf) this.push(this.buf); cb(); },
});
const out = [];
pipeline(Readable.from(['a,b', ',c,', 'd']), split, new Writable({ objectMode: true, write(o, e, cb) { out.push(o); cb(); } }), (err) => {
  console.log('pipeline done', err, out);
});
const pt = new PassThrough();
pt.end('pass');
pt.on('data', (d) => console.log('pt', d.toString()));
const t = new Transform({ transform(c, e, cb) { cb(new Error('tx fail')); } });
pipeline(Readable.from(['x']), t, new PassThrough(), (err) => console.log('failed pipeline', err && err.message));
