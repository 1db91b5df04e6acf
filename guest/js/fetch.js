'use strict';
// fetch, Headers, Request and Response. fetch is a host call, made only
// when the workspace has an outbound policy.

function makeFetch() {
  class Headers {
    constructor(init) {
      this._m = new Map();
      if (init == null) return;
      if (init instanceof Headers) init = [...init];
      if (Array.isArray(init)) for (const [k, v] of init) this.append(k, v);
      else for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    append(k, v) { k = String(k).toLowerCase(); const o = this._m.get(k); this._m.set(k, o === undefined ? String(v) : o + ', ' + v); }
    set(k, v) { this._m.set(String(k).toLowerCase(), String(v)); }
    get(k) { const v = this._m.get(String(k).toLowerCase()); return v === undefined ? null : v; }
    has(k) { return this._m.has(String(k).toLowerCase()); }
    delete(k) { this._m.delete(String(k).toLowerCase()); }
    forEach(fn, thisArg) { for (const [k, v] of this) fn.call(thisArg, v, k, this); }
    *entries() { yield* [...this._m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)); }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
  }
  const bodyBytes = (body) => {
    if (body == null) return null;
    if (typeof body === 'string') return host.utf8Encode(body);
    if (body instanceof ArrayBuffer) return new Uint8Array(body);
    if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    if (typeof body === 'object' && typeof body.toString === 'function' && body.constructor && body.constructor.name === 'URLSearchParams') {
      return host.utf8Encode(body.toString());
    }
    throw new TypeError('fetch: unsupported body type (use a string, an ArrayBuffer or a Uint8Array)');
  };
  class Response {
    constructor(body, init = {}) {
      this._body = bodyBytes(body) || new Uint8Array(0);
      this.status = init.status === undefined ? 200 : init.status;
      this.statusText = init.statusText || '';
      this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
      this.url = init.url || '';
      this.redirected = false;
      this.type = 'basic';
      this.bodyUsed = false;
    }
    get ok() { return this.status >= 200 && this.status < 300; }
    _take() {
      if (this.bodyUsed) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
      this.bodyUsed = true;
      return Promise.resolve(this._body);
    }
    arrayBuffer() { return this._take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); }
    bytes() { return this._take().then((b) => new Uint8Array(b)); }
    text() { return this._take().then((b) => host.utf8Decode(b, false)); }
    json() { return this.text().then((t) => JSON.parse(t)); }
    clone() {
      if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
      return new Response(new Uint8Array(this._body), { status: this.status, statusText: this.statusText, headers: new Headers(this.headers), url: this.url });
    }
    static json(data, init = {}) {
      const h = new Headers(init.headers);
      if (!h.has('content-type')) h.set('content-type', 'application/json');
      return new Response(JSON.stringify(data), { ...init, headers: h });
    }
  }
  class Request {
    constructor(input, init = {}) {
      this.url = typeof input === 'string' ? input : input instanceof Request ? input.url : String(input);
      this.method = (init.method || (input instanceof Request ? input.method : 'GET')).toUpperCase();
      this.headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
      this._body = init.body !== undefined ? init.body : input instanceof Request ? input._body : undefined;
    }
  }
  const fetch = (async function fetch(input, init = {}) {
    if (!host.fetchAllowed) throw new TypeError('fetch is not available: the workspace has no outbound network policy');
    const req = input instanceof Request ? input : null;
    const url = req ? req.url : typeof input === 'string' ? input : String(input && input.href ? input.href : input);
    const method = String(init.method || (req ? req.method : 'GET')).toUpperCase();
    const headers = {};
    for (const [k, v] of new Headers(init.headers || (req ? req.headers : undefined))) headers[k] = v;
    const raw = init.body !== undefined ? init.body : req ? req._body : undefined;
    const body = bodyBytes(raw);
    if (body && raw && typeof raw === 'object' && !ArrayBuffer.isView(raw) && !(raw instanceof ArrayBuffer) && !headers['content-type']) {
      headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    } else if (typeof raw === 'string' && !headers['content-type']) {
      headers['content-type'] = 'text/plain;charset=UTF-8';
    }
    const res = await host.call('fetch', 'fetch', { url, method, headers, body });
    let h = res.headers;
    if (h && !Array.isArray(h)) {
      const pairs = [];
      for (const k of Object.keys(h)) {
        const v = h[k];
        if (Array.isArray(v)) for (const x of v) pairs.push([k, x]); else pairs.push([k, v]);
      }
      h = pairs;
    }
    return new Response(res.body == null ? null : res.body, { status: res.status, statusText: res.statusText || '', headers: h || [], url: res.url || url });
  });
  return { Headers, Response, Request, fetch };
}

module.exports = makeFetch();
