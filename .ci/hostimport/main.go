// Command hostimport rewrites a package's uses of the names that moved from
// github.com/nookdev/nook/runtime to github.com/nookdev/nook/runtime/host:
// every runtime.X whose X runtime/host declares becomes host.X, the host
// import is added, and the runtime import goes when nothing else uses it.
//
//	go run .ci/hostimport/main.go [-tests] DIR...
//
// Run it from the module's root. Test files are left alone unless -tests is
// given: they keep using runtime's aliases (runtime/moved.go), which is what
// shows the aliases still work. Where the identifier host is declared in a
// function that names a moved type (a parameter "host runtime.Host", most
// often), the package is imported as rthost in that file instead, so no
// variable shadows it. Files are rewritten in place and listed on stdout.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

const (
	runtimePath = "github.com/nookdev/nook/runtime"
	hostPath    = "github.com/nookdev/nook/runtime/host"
	hostDir     = "runtime/host"
)

func main() {
	tests := flag.Bool("tests", false, "rewrite _test.go files too")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: go run .ci/hostimport/main.go [-tests] DIR...")
		os.Exit(2)
	}
	moved, err := hostNames(hostDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostimport:", err)
		os.Exit(1)
	}
	failed := false
	for _, dir := range flag.Args() {
		if err := rewriteDir(dir, moved, *tests); err != nil {
			fmt.Fprintln(os.Stderr, "hostimport:", err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// hostNames returns the exported package-level names declared in dir's
// non-test files.
func hostNames(dir string) (map[string]bool, error) {
	files, _, err := parseDir(token.NewFileSet(), dir, false)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, f := range files {
		for name := range topLevel(f) {
			if ast.IsExported(name) {
				names[name] = true
			}
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s declares no exported names (run from the module's root)", dir)
	}
	return names, nil
}

// topLevel returns the names f declares at package level (methods aside).
func topLevel(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	return names
}

func parseDir(fset *token.FileSet, dir string, tests bool) ([]*ast.File, []string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var files []*ast.File
	var paths []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || (!tests && strings.HasSuffix(name, "_test.go")) {
			continue
		}
		p := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
		paths = append(paths, p)
	}
	return files, paths, nil
}

func rewriteDir(dir string, moved map[string]bool, tests bool) error {
	fset := token.NewFileSet()
	// Every file of the package counts for a package-level "host".
	all, _, err := parseDir(fset, dir, true)
	if err != nil {
		return err
	}
	pkgHost := false
	for _, f := range all {
		if topLevel(f)["host"] {
			pkgHost = true
		}
	}
	files, paths, err := parseDir(fset, dir, tests)
	if err != nil {
		return err
	}
	for i, f := range files {
		out, changed, err := rewriteFile(fset, f, moved, pkgHost)
		if err != nil {
			return fmt.Errorf("%s: %v", paths[i], err)
		}
		if !changed {
			continue
		}
		if err := os.WriteFile(paths[i], out, 0o644); err != nil {
			return err
		}
		fmt.Println(paths[i])
	}
	return nil
}

// rewriteFile rewrites f's selectors of moved names and returns the
// formatted file, imports fixed.
func rewriteFile(fset *token.FileSet, f *ast.File, moved map[string]bool, pkgHost bool) ([]byte, bool, error) {
	local, have := "", "" // runtime's local name, and host's if imported
	for _, im := range f.Imports {
		switch im.Path.Value {
		case `"` + runtimePath + `"`:
			local = "runtime"
			if im.Name != nil {
				local = im.Name.Name
			}
		case `"` + hostPath + `"`:
			have = "host"
			if im.Name != nil {
				have = im.Name.Name
			}
		}
	}
	if local == "" || local == "_" || local == "." {
		return nil, false, nil
	}
	// Function bodies where a local "host" is declared.
	type span struct{ from, to token.Pos }
	var shadowed []span
	ast.Inspect(f, func(n ast.Node) bool {
		var typ *ast.FuncType
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			typ, body = n.Type, n.Body
			if n.Recv != nil && declares(n.Recv) {
				shadowed = append(shadowed, span{n.Pos(), n.End()})
				return true
			}
		case *ast.FuncLit:
			typ, body = n.Type, n.Body
		default:
			return true
		}
		if body != nil && (declares(typ) || declares(body)) {
			shadowed = append(shadowed, span{body.Pos(), body.End()})
		}
		return true
	})
	var sites []*ast.Ident
	conflict := pkgHost
	rest := 0 // uses of runtime left
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || x.Name != local || x.Obj != nil {
			return true
		}
		if !moved[sel.Sel.Name] {
			rest++
			return true
		}
		sites = append(sites, x)
		for _, s := range shadowed {
			if x.Pos() >= s.from && x.Pos() < s.to {
				conflict = true
			}
		}
		return true
	})
	if len(sites) == 0 && (have == "" || rest > 0) {
		return nil, false, nil
	}
	name := "host"
	if have != "" {
		name = have // a file rewritten before, touched since
	} else if conflict || topLevel(f)["host"] {
		name = "rthost"
	}
	for _, x := range sites {
		x.Name = name
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, false, err
	}
	src := buf.Bytes()
	var err error
	if have == "" {
		src, err = fixImports(src, name, rest > 0)
	} else if rest == 0 {
		src, err = dropImport(src)
	}
	if err != nil {
		return nil, false, err
	}
	return src, true, nil
}

// declares reports whether n declares an identifier named host.
func declares(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "host" && id.Obj != nil && id.Obj.Pos() == id.Pos() {
			found = true
		}
		return !found
	})
	return found
}

// dropImport removes the runtime import from a file that already imports
// host and no longer uses runtime.
func dropImport(src []byte) ([]byte, error) {
	rt := regexp.MustCompile(`(?m)^[ \t]*(?:[A-Za-z_][A-Za-z0-9_]* )?"` + regexp.QuoteMeta(runtimePath) + `"\n`)
	single := regexp.MustCompile(`(?m)^import (?:[A-Za-z_][A-Za-z0-9_]* )?"` + regexp.QuoteMeta(runtimePath) + `"\n`)
	out := single.ReplaceAll(src, nil)
	out = rt.ReplaceAll(out, nil)
	return format.Source(out)
}

// fixImports adds the host import next to runtime's (or in its place when
// runtime is no longer used) and lets gofmt sort the block.
func fixImports(src []byte, name string, keepRuntime bool) ([]byte, error) {
	spec := `"` + hostPath + `"`
	if name != "host" {
		spec = name + " " + spec
	}
	rt := regexp.MustCompile(`(?m)^([ \t]*|import )((?:[A-Za-z_][A-Za-z0-9_]* )?"` + regexp.QuoteMeta(runtimePath) + `")$`)
	loc := rt.FindSubmatchIndex(src)
	if loc == nil {
		return nil, fmt.Errorf("no import of %s", runtimePath)
	}
	prefix := string(src[loc[2]:loc[3]])
	old := string(src[loc[4]:loc[5]])
	var repl string
	switch {
	case !keepRuntime && prefix == "import ":
		repl = "import " + spec
	case !keepRuntime:
		repl = prefix + spec
	case prefix == "import ":
		repl = "import (\n\t" + old + "\n\t" + spec + "\n)"
	default:
		repl = prefix + old + "\n" + prefix + spec
	}
	out := append(append(append([]byte{}, src[:loc[0]]...), repl...), src[loc[1]:]...)
	return format.Source(out)
}
