package js_test

import "testing"

// goja panicked ("index out of range", reported as "js: internal error")
// or read undefined when an arrow function read the arguments of a
// function that did not read them itself; the backend works around it.
func TestArrowFunctionArguments(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
function f() { return (() => arguments[0])(); }
function g(a) { return ((y) => arguments.length + ":" + a)(); }
function h() { "use strict"; return (() => () => [...arguments].join(","))()(); }
const o = { m() { return (() => arguments[1])(); }, get p() { return (() => arguments.length)(); } };
class C { m() { return (() => arguments[0])(); } static s() { return (() => arguments[0])(); } }
function outer() { return (function () { return (() => arguments[0])(); })("inner"); }
function strictness() { "use strict"; return (() => { try { undeclared = 1; return "sloppy"; } catch (e) { return e.name; } })(); }
const ev = eval("(function () { return (() => arguments[0])(); })")("eval");
const fn = new Function("a", "b", "return (() => arguments[0] + arguments[1])()")(2, 3);
const fn2 = new Function("'use strict'; return (() => { try { undeclared2 = 1; return 'sloppy'; } catch (e) { return e.name + ':' + arguments[0]; } })()")("x");
console.log(f(1), g(7, 8), h(1, 2, 3), o.m(4, 5), o.p, new C().m(6), C.s(9), outer(), strictness(), ev, fn, fn2);
`})
	want := "1 2:7 1,2,3 5 0 6 9 inner ReferenceError eval 5 ReferenceError:x\n"
	if r.stdout != want {
		t.Errorf("stdout = %q, want %q", r.stdout, want)
	}
}
