package runtime_test

import (
	"flag"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateAPI = flag.Bool("update-api", false, "rewrite testdata/api.txt from the package's current exported names")

// TestAPICompat checks that every exported name runtime had when
// testdata/api.txt was recorded still exists: declared in runtime, or, for a
// name that moved to runtime/host, re-exported from it by an alias (a
// method of an aliased type is looked up on the type it aliases).
func TestAPICompat(t *testing.T) {
	got := exportedNames(t, ".")
	if *updateAPI {
		if err := os.WriteFile(filepath.Join("testdata", "api.txt"), []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(filepath.Join("testdata", "api.txt"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, n := range got {
		have[n] = true
	}
	for _, n := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if !have[n] {
			t.Errorf("runtime no longer exports %s", n)
		}
	}
}

// exportedNames lists the exported API of the package in dir as sorted lines
// ("func New", "type Runtime", "method Runtime.Exec", "const Stdout",
// "var X"). A type declared as an alias of a type of another package in the
// module (type X = host.X) takes its methods from that package's doc.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	p := parseDoc(t, dir)
	var out []string
	values := func(kind string, vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				if token.IsExported(n) {
					out = append(out, kind+" "+n)
				}
			}
		}
	}
	values("const", p.Consts)
	values("var", p.Vars)
	for _, f := range p.Funcs {
		out = append(out, "func "+f.Name)
	}
	others := map[string]*doc.Package{}
	for _, ty := range p.Types {
		out = append(out, "type "+ty.Name)
		values("const", ty.Consts)
		values("var", ty.Vars)
		for _, f := range ty.Funcs {
			out = append(out, "func "+f.Name)
		}
		methods := ty.Methods
		if pkg, name, ok := aliasOf(ty); ok {
			op := others[pkg]
			if op == nil {
				op = parseDoc(t, pkg)
				others[pkg] = op
			}
			for _, oty := range op.Types {
				if oty.Name == name {
					methods = oty.Methods
				}
			}
		}
		for _, m := range methods {
			out = append(out, "method "+ty.Name+"."+m.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// aliasOf reports the directory (relative to runtime) and name of the type
// ty aliases, when it is declared as "type X = pkg.Y" with pkg one of
// runtime's subpackages.
func aliasOf(ty *doc.Type) (dir, name string, ok bool) {
	ts, _ := ty.Decl.Specs[0].(*ast.TypeSpec)
	for _, s := range ty.Decl.Specs {
		if s, _ := s.(*ast.TypeSpec); s != nil && s.Name.Name == ty.Name {
			ts = s
		}
	}
	if ts == nil || !ts.Assign.IsValid() {
		return "", "", false
	}
	sel, _ := ts.Type.(*ast.SelectorExpr)
	if sel == nil {
		return "", "", false
	}
	x, _ := sel.X.(*ast.Ident)
	if x == nil {
		return "", "", false
	}
	return x.Name, sel.Sel.Name, true
}

func parseDoc(t *testing.T, dir string) *doc.Package {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/nookdev/nook/runtime/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
