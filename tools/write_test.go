package tools

import (
	"encoding/json"
	"errors"
	"io/fs"
	"testing"
)

// A property the input schema requires is required: a write without
// content was taken as an empty file, though every schema-validating
// client would refuse it. Each tool refuses a call that lacks any one of
// its required properties, names it, and changes nothing.
func TestRequiredProperties(t *testing.T) {
	s, f := newSet(t, Options{})
	fails(t, s, "write", `{"path":"/w.txt"}`, "invalid arguments for write: content is required")
	if _, err := f.Stat(bg, "/w.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a write without content made the file: %v", err)
	}
	for _, tool := range s.Tools() {
		var sch struct{ Required []string }
		if err := json.Unmarshal(tool.InputSchema, &sch); err != nil {
			t.Fatal(err)
		}
		for _, k := range sch.Required {
			args := map[string]any{}
			for _, other := range sch.Required {
				if other != k {
					args[other] = "x"
				}
			}
			in, _ := json.Marshal(args)
			fails(t, s, tool.Name, string(in), "invalid arguments for "+tool.Name+": "+k+" is required")
		}
	}
}
