package export

import (
	"fmt"

	"github.com/nookdev/nook/tools"
)

// Responses returns set as OpenAI Responses API function tools:
//
//	[{"type":"function","name","description","parameters","strict"}]
//
// The Responses API takes a tool as strict unless it says otherwise, so
// "strict" is always written: without strict, false for every tool, and
// parameters is the tool's InputSchema unchanged; with strict, true with
// Strict(InputSchema) for every tool whose schema strict mode can express
// (see Strictable), and false with the schema unchanged for the others
// (exec).
func Responses(set *tools.Set, strict bool) []byte {
	var b jsonBuf
	b.raw("[")
	for i, t := range set.Tools() {
		if i > 0 {
			b.raw(",")
		}
		b.raw(`{"type":"function","name":`)
		b.str(t.Name)
		b.raw(`,"description":`)
		b.str(t.Description)
		b.raw(`,"parameters":`)
		if strict && Strictable(t.InputSchema) {
			s, err := Strict(t.InputSchema)
			if err != nil {
				panic(fmt.Sprintf("export: input schema of %s: %v", t.Name, err))
			}
			b.Write(s)
			b.raw(`,"strict":true}`)
		} else {
			b.schema(t.Name, t.InputSchema)
			b.raw(`,"strict":false}`)
		}
	}
	b.raw("]")
	return b.Bytes()
}
