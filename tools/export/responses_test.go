package export_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/export"
	"github.com/nookdev/nook/vfs"
)

type nopBackend struct{}

func (nopBackend) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "nop", Description: "nothing"}
}
func (nopBackend) Prepare(context.Context, *vfs.FS, *runtime.Request) (runtime.Program, error) {
	return nil, nil
}

func execSet(t *testing.T) *tools.Set {
	t.Helper()
	ws, err := nook.OpenMemory(context.Background(), nook.WithBackends(nopBackend{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return tools.New(ws.FS(), tools.Options{Runtime: ws.Runtime()})
}

// exec's schema cannot be strict: the strict formats say so outright.
func TestStrictFalseForExec(t *testing.T) {
	set := execSet(t)
	var chat []struct {
		Function struct {
			Name       string
			Parameters json.RawMessage
			Strict     *bool
		}
	}
	if err := json.Unmarshal(export.OpenAI(set, true), &chat); err != nil {
		t.Fatal(err)
	}
	var resp []struct {
		Type, Name, Description string
		Parameters              json.RawMessage
		Strict                  *bool
	}
	if err := json.Unmarshal(export.Responses(set, true), &resp); err != nil {
		t.Fatal(err)
	}
	var plain []struct{ Strict *bool }
	if err := json.Unmarshal(export.Responses(set, false), &plain); err != nil {
		t.Fatal(err)
	}
	tl := set.Tools()
	if len(chat) != len(tl) || len(resp) != len(tl) || len(plain) != len(tl) || tl[len(tl)-1].Name != "exec" {
		t.Fatalf("%d, %d, %d tools, want %d ending with exec", len(chat), len(resp), len(plain), len(tl))
	}
	for i, x := range tl {
		wantStrict := x.Name != "exec"
		c, r := chat[i].Function, resp[i]
		if c.Strict == nil || *c.Strict != wantStrict {
			t.Errorf("chat %s: strict %v, want %v", x.Name, c.Strict, wantStrict)
		}
		if r.Type != "function" || r.Name != x.Name || r.Description != x.Description || r.Strict == nil || *r.Strict != wantStrict {
			t.Errorf("responses %s: %+v", x.Name, r)
		}
		if string(r.Parameters) != string(c.Parameters) {
			t.Errorf("responses %s: parameters differ from chat's:\n%s\n%s", x.Name, r.Parameters, c.Parameters)
		}
		if plain[i].Strict == nil || *plain[i].Strict {
			t.Errorf("responses (not strict) %s: strict %v, want false", x.Name, plain[i].Strict)
		}
	}
}
