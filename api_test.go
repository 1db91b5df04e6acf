package nook_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPublicAPIHidesInternal fails when an exported declaration of a public
// package of the module (one outside any internal/ directory) mentions a
// type of an internal package: such an API cannot be called from outside
// the module (nobody else can name the type), and it ties the internals to
// the compatibility promise. It reads the source, not compiled packages, so
// it is quick: exported functions and methods of exported types (their
// parameters and results), exported types (their exported fields, embedded
// fields and interface methods), and exported variables and constants with
// an explicit type.
func TestPublicAPIHidesInternal(t *testing.T) {
	var problems []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != "." && (name == "internal" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		problems = append(problems, checkFile(t, p)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// checkFile lists the exported declarations of one file that mention an
// internal package.
func checkFile(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name.Name == "main" {
		return nil
	}
	internal := map[string]string{} // local name -> import path
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains("/"+ip+"/", "/internal/") {
			continue
		}
		name := ip[strings.LastIndex(ip, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		internal[name] = ip
	}
	if len(internal) == 0 {
		return nil
	}
	var out []string
	report := func(what string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok {
					if ip, ok := internal[x.Name]; ok {
						out = append(out, fset.Position(sel.Pos()).String()+": "+what+" mentions "+ip+"."+sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
	// exportedType reports whether the receiver type of a method is exported.
	exportedRecv := func(fd *ast.FuncDecl) bool {
		if fd.Recv == nil {
			return true
		}
		x := fd.Recv.List[0].Type
		if s, ok := x.(*ast.StarExpr); ok {
			x = s.X
		}
		switch r := x.(type) {
		case *ast.IndexExpr:
			x = r.X
		case *ast.IndexListExpr:
			x = r.X
		}
		id, ok := x.(*ast.Ident)
		return ok && id.IsExported()
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && exportedRecv(d) {
				report("func "+d.Name.Name, d.Type)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					what := "type " + s.Name.Name
					if s.TypeParams != nil {
						report(what, s.TypeParams)
					}
					switch ty := s.Type.(type) {
					case *ast.StructType:
						for _, fl := range ty.Fields.List {
							if len(fl.Names) == 0 || slices.ContainsFunc(fl.Names, (*ast.Ident).IsExported) {
								report(what, fl.Type)
							}
						}
					case *ast.InterfaceType:
						for _, m := range ty.Methods.List {
							if len(m.Names) == 0 || slices.ContainsFunc(m.Names, (*ast.Ident).IsExported) {
								report(what, m.Type)
							}
						}
					default:
						report(what, s.Type)
					}
				case *ast.ValueSpec:
					if s.Type != nil && slices.ContainsFunc(s.Names, (*ast.Ident).IsExported) {
						report("var "+s.Names[0].Name, s.Type)
					}
				}
			}
		}
	}
	return out
}
