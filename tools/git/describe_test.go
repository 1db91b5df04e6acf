package git

import (
	"strings"
	"testing"
)

// Every function is described, and every description offers the dir
// option that every function takes (checkKeys).
func TestModuleDocOffersDir(t *testing.T) {
	d := ModuleDoc()
	for _, fn := range functions {
		doc, ok := d.Funcs[fn.name]
		if !ok {
			t.Errorf("%s is not described", fn.name)
			continue
		}
		if !strings.Contains(doc.Signature, "dir?: string") {
			t.Errorf("%s%s lacks dir?: string", fn.name, doc.Signature)
		}
	}
	if len(d.Funcs) != len(functions) {
		t.Errorf("%d descriptions for %d functions", len(d.Funcs), len(functions))
	}
}
