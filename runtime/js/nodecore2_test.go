package js_test

import (
	"testing"
)

// TestURLSearchParamsBrand: URLSearchParams' methods and its live
// iterator check this with Node's ERR_INVALID_THIS, the constructor
// rejects bad pairs with ERR_INVALID_TUPLE / ERR_ARG_NOT_ITERABLE, and
// names go through ToString (a Symbol throws).
func TestURLSearchParamsBrand(t *testing.T) {
	lines(t, `
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const p = new URLSearchParams("a=1&b=2");
const it = p.keys();
export default () => [
  show(() => p.append.call(undefined)),
  show(() => p.append("a")),
  show(() => p.get()),
  show(() => it.next.call({})),
  show(() => { const v = p.values(); p.append("c", "3"); return [...v].join(","); }),
  show(() => Object.prototype.toString.call(it) + " " + Object.prototype.toString.call(p)),
  show(() => it[Symbol.iterator]() === it),
  show(() => new URLSearchParams([["a"]])),
  show(() => new URLSearchParams([null])),
  show(() => new URLSearchParams({ [Symbol.iterator]: 42 })),
  show(() => new URLSearchParams({ [Symbol("s")]: 1 })),
  show(() => p.set(Symbol(), "x")),
  show(() => p.forEach()),
  show(() => Object.keys(URLSearchParams.prototype).join(",")),
  show(() => URLSearchParams.prototype[Symbol.iterator].name + " " + Object.getOwnPropertyDescriptor(URLSearchParams.prototype, Symbol.iterator).enumerable),
];`,
		`TypeError|ERR_INVALID_THIS|Value of \"this\" must be of type URLSearchParams`,
		`TypeError|ERR_MISSING_ARGS|The \"name\" and \"value\" arguments must be specified`,
		`TypeError|ERR_MISSING_ARGS|The \"name\" argument must be specified`,
		`TypeError|ERR_INVALID_THIS|Value of \"this\" must be of type URLSearchParamsIterator`,
		`1,2,3`,
		`[object URLSearchParams Iterator] [object URLSearchParams]`,
		`true`,
		`TypeError|ERR_INVALID_TUPLE|Each query pair must be an iterable [name, value] tuple`,
		`TypeError|ERR_INVALID_TUPLE|Each query pair must be an iterable [name, value] tuple`,
		`TypeError|ERR_ARG_NOT_ITERABLE|Query pairs must be iterable`,
		`TypeError|undefined|Cannot convert a Symbol value to a string`,
		`TypeError|undefined|Cannot convert a Symbol value to a string`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"callback\" argument must be of type function. Received undefined`,
		`size,append,delete,get,getAll,has,set,sort,forEach,entries,keys,values,toString`,
		`entries false`,
	)
}

// TestObjectURLs: URL.createObjectURL registers a Blob that
// buffer.resolveObjectURL finds until revokeObjectURL; urlToHttpOptions
// and fileURLToPath follow Node.
func TestObjectURLs(t *testing.T) {
	lines(t, `
import { resolveObjectURL } from "node:buffer";
import url from "node:url";
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const b = new Blob(["hello"]);
const id = URL.createObjectURL(b);
export default () => [
  show(() => /^blob:nodedata:[0-9a-f-]{36}$/.test(id)),
  show(() => resolveObjectURL(id) === b),
  show(() => { URL.revokeObjectURL(id); URL.revokeObjectURL(id); return resolveObjectURL(id); }),
  show(() => resolveObjectURL("blob:nodedata:1:wrong")),
  show(() => URL.createObjectURL("x")),
  show(() => { const o = url.urlToHttpOptions({ ...new URL("http://a:b@[::1]:21/p?q") }); return [o.port, o.path, o instanceof Object].join(","); }),
  show(() => JSON.stringify(url.urlToHttpOptions(new URL("http://a:b@[::1]:21/p?q")))),
  show(() => url.urlToHttpOptions("http://x")),
  show(() => { try { url.fileURLToPath("file:///a%2F/"); } catch (e) { return e.code + " " + e.message + " " + e.input.href; } }),
  show(() => url.parse([])),
];`,
		`true`,
		`true`,
		`undefined`,
		`undefined`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"obj\" argument must be an instance of Blob. Received type string ('x')`,
		`NaN,,false`,
		`{\"protocol\":\"http:\",\"hostname\":\"::1\",\"hash\":\"\",\"search\":\"?q\",\"pathname\":\"/p\",\"path\":\"/p?q\",\"href\":\"http://a:b@[::1]:21/p?q\",\"port\":21,\"auth\":\"a:b\"}`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"url\" argument must be of type object. Received type string ('http://x')`,
		`ERR_INVALID_FILE_URL_PATH File URL path must not include encoded / characters file:///a%2F/`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"url\" argument must be of type string. Received an instance of Array`,
	)
}

// TestObjectURLLimit: registering more than MaxObjectURLs blob: URLs at
// once fails with an error naming the limit; revoking makes room.
func TestObjectURLLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("registers 65536 object URLs")
	}
	lines(t, `
const b = new Blob([]);
const ids = [];
let err = "none";
try { for (let i = 0; i <= 65536; i++) ids.push(URL.createObjectURL(b)); } catch (e) { err = e.name + "|" + e.message; }
URL.revokeObjectURL(ids[0]);
export default () => [String(ids.length), err, String(URL.createObjectURL(b).startsWith("blob:nodedata:"))];`,
		`65536`,
		`RangeError|URL.createObjectURL: 65536 object URLs are registered, the limit MaxObjectURLs (65536)`,
		`true`,
	)
}
