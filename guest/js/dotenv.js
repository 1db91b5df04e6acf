'use strict';
// The .env parser behind util.parseEnv and process.loadEnvFile, with the
// semantics of Node's src/node_dotenv.cc (read for its rules, not copied):
// '\r' is dropped; blank lines and lines starting with '#' are skipped; a
// line without '=' is skipped; the key is trimmed and loses an "export "
// prefix; a value in matching quotes ('', "", ``) keeps its inner text,
// newlines included, and a double-quoted one expands "\n"; an unclosed
// quote makes the rest of its line the value; an unquoted value ends at
// '#' and is trimmed. A repeated key keeps its last value, and the result
// lists the keys in byte order, as Node's std::map does. It scans with
// indexOf only, so it runs in time linear in the input.

const blank = ' \t\n';

// trim drops spaces, tabs and newlines from both ends, as Node's
// trim_spaces does (not String.prototype.trim, which drops more).
function trim(s) {
  let i = 0;
  let j = s.length;
  while (i < j && blank.includes(s[i])) i++;
  while (j > i && blank.includes(s[j - 1])) j--;
  return s.slice(i, j);
}

// parse returns the key → value pairs of content as a Map, in file order.
// It walks one index over the text (Node's parser trims a string view;
// here the view is t.slice(p, n), never copied).
function parse(content) {
  const store = new Map();
  const t = content.replaceAll('\r', '');
  let n = t.length;
  while (n > 0 && blank.includes(t[n - 1])) n--;
  let p = 0;
  const skipBlank = () => { while (p < n && blank.includes(t[p])) p++; };
  // find is the index of c at or after from in the view, or -1.
  const find = (c, from) => {
    const i = t.indexOf(c, from);
    return i < 0 || i >= n ? -1 : i;
  };
  // nextLine moves past the newline at or after from, or to the end.
  const nextLine = (from) => {
    const nl = find('\n', from);
    p = nl < 0 ? n : nl + 1;
  };
  skipBlank();
  while (p < n) {
    if (t[p] === '\n' || t[p] === '#') {
      nextLine(p);
      continue;
    }
    const eq = find('=', p);
    const nl = find('\n', p);
    if (eq < 0 || (nl >= 0 && nl < eq)) {
      if (nl < 0) break;
      p = nl + 1;
      skipBlank();
      continue;
    }
    let key = trim(t.slice(p, eq));
    p = eq + 1;
    if (p >= n || t[p] === '\n') {
      store.set(key, '');
      continue;
    }
    skipBlank();
    if (key === '') continue;
    if (key.startsWith('export ')) key = trim(key.slice(7));
    if (p >= n) {
      store.set(key, '');
      break;
    }
    const q = t[p];
    if (q === '"' || q === "'" || q === '`') {
      const close = find(q, p + 1);
      if (close < 0) {
        // An unclosed quote: the line, quote included, is the value.
        const end = find('\n', p);
        store.set(key, t.slice(p, end < 0 ? n : end));
        if (end < 0) break;
        p = end + 1;
      } else {
        const inner = t.slice(p + 1, close);
        store.set(key, q === '"' ? inner.replaceAll('\\n', '\n') : inner);
        nextLine(close + 1);
        continue;
      }
    } else {
      const end = find('\n', p);
      let value = t.slice(p, end < 0 ? n : end);
      const hash = value.indexOf('#');
      if (hash >= 0) value = value.slice(0, hash);
      store.set(key, trim(value));
      p = end < 0 ? n : end + 1;
    }
    skipBlank();
  }
  return store;
}

// byteOrder compares strings as std::string does: by UTF-8 bytes, which
// is code point order (not the UTF-16 order of the default sort).
function byteOrder(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < x.length && i < y.length; i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

// parseEnv is util.parseEnv: the pairs of content in an object with no
// prototype, its keys in byte order.
function parseEnv(content) {
  require('nook:errors.js').validateString(content, 'content');
  const store = parse(content);
  const out = { __proto__: null };
  for (const k of [...store.keys()].sort(byteOrder)) out[k] = store.get(k);
  return out;
}

module.exports = { parse, parseEnv };
