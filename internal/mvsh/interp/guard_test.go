// nook: tests of guard.go (see ../PATCHES.md, "goroutine panics").

package interp_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nookdev/nook/internal/mvsh/interp"
	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// A panic in a goroutine of the interpreter (here: a call handler reached
// from a pipeline stage, a background job, a here-document's pipeline)
// ends the run with an *InternalError instead of ending the process.
func TestGoroutinePanic(t *testing.T) {
	for _, src := range []string{
		"boom | cat; echo after",
		"echo x | boom; echo after",
		"boom & wait; echo after",
		"{ boom; } | cat; echo after",
		"(boom) | cat <<EOF\nhi\nEOF\necho after",
	} {
		t.Run(src, func(t *testing.T) {
			f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			var handled []any
			r, err := interp.New(
				interp.StdIO(nil, &out, &out),
				interp.CallHandler(func(ctx context.Context, args []string) ([]string, error) {
					if args[0] == "boom" {
						panic("injected")
					}
					return args, nil
				}),
				interp.PanicHandler(func(v any) error { handled = append(handled, v); return nil }),
			)
			if err != nil {
				t.Fatal(err)
			}
			err = r.Run(context.Background(), f)
			var ie *interp.InternalError
			if !errors.As(err, &ie) || ie.Value != "injected" {
				t.Fatalf("Run error = %v, want an *InternalError of the injected panic", err)
			}
			if got := err.Error(); got != "internal error: injected" {
				t.Errorf("error text %q", got)
			}
			if len(handled) != 1 || handled[0] != "injected" {
				t.Errorf("panic handler saw %v", handled)
			}
			if strings.Contains(out.String(), "after") {
				t.Errorf("the run went on after the panic: %q", out.String())
			}
		})
	}
}
