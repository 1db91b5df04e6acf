package js_test

import (
	"testing"
)

func TestDefaultExportInputResult(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
export default async function (input) {
  console.log("hello", input.n, {a: [1, "x"]});
  return { n: input.n + 1, s: "ok" };
}`, input: `{"n": 41}`})
	if got := r.value(); got != `{"n":42,"s":"ok"}` {
		t.Errorf("value = %s", got)
	}
	if r.stdout != "hello 41 { a: [ 1, 'x' ] }\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
}
