package shell_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/serdes"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/vfs"
)

// The differential suite: every testdata/diff/*.sh script runs under GNU
// bash with coreutils in a temporary host directory and under the shell
// backend over a workspace holding the same files. Standard output, the
// exit code and the resulting files must be the same. Scripts listed in
// knownDiff are run but their differences are only logged; each has its
// reason (also in RATIONALE.md).

// seedFiles is the tree every script starts from.
var seedFiles = map[string]string{
	"README.md":            "# Demo\n\nA small project.\nTODO: write docs\n",
	"src/main.go":          "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n\t// TODO: flags\n}\n",
	"src/util.go":          "package main\n\nfunc add(a, b int) int { return a + b }\n\nfunc sub(a, b int) int { return a - b }\n",
	"src/util_test.go":     "package main\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif add(1, 2) != 3 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
	"src/lib/strings.ts":   "export function upper(s: string): string {\n  return s.toUpperCase();\n}\n// TODO: lower\n",
	"src/lib/math.ts":      "export const pi = 3.14159;\nexport function sq(x: number) { return x * x; }\n",
	"data/users.csv":       "id,name,age,city\n1,alice,30,Paris\n2,bob,25,Berlin\n3,carol,35,Paris\n4,dave,25,Rome\n5,eve,41,Berlin\n",
	"data/numbers.txt":     "10\n2\n33\n4\n100\n2\n7\n",
	"data/words.txt":       "apple\nbanana\napple\ncherry\nbanana\napple\ndate\n",
	"data/config.json":     "{\"name\": \"demo\", \"version\": \"1.2.3\", \"deps\": {\"a\": \"^1.0\", \"b\": \"~2.1\"}, \"tags\": [\"x\", \"y\"]}\n",
	"data/log.txt":         "2024-01-01 INFO start\n2024-01-01 WARN disk low\n2024-01-02 ERROR failed to open\n2024-01-02 INFO retry\n2024-01-03 ERROR timeout\n",
	"notes/empty.txt":      "",
	"notes/no-newline.txt": "last line without newline",
	".hidden":              "secret\n",
}

// knownDiff lists the scripts whose output differs by design, with why.
// The difference itself is kept in testdata/diff/NAME.known: a known
// script fails when it starts matching bash (take it off the list) or when
// its difference drifts from the recorded one (-update-known rewrites the
// records after a deliberate change).
var knownDiff = map[string]string{
	"107-type-command": "type of a function prints only \"f is a function\", not bash's reformatted body",
}

var updateKnown = flag.Bool("update-known", false, "rewrite testdata/diff/*.known from the current differences")

// needs names the host programs a script compares against beyond bash and
// coreutils ("# needs: tree zip" on a line of its own); without them the
// script is skipped, and a skipped script is not counted as identical.
func needs(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(l, "# needs:"); ok {
			out = append(out, strings.Fields(rest)...)
		}
	}
	return out
}

func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("the differential suite runs without -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("GNU bash is not installed")
	}
	scripts, _ := filepath.Glob("testdata/diff/*.sh")
	if len(scripts) == 0 {
		t.Fatal("no scripts")
	}
	ws := openWSJS(t, nil) // node runs on the js backend
	same, skipped, known := 0, 0, 0
	seen := map[string]bool{}
	for _, s := range scripts {
		name := strings.TrimSuffix(filepath.Base(s), ".sh")
		seen[name] = true
		src, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		var result string
		t.Run(name, func(t *testing.T) {
			if awkDir == "" && strings.Contains(string(src), "awk") {
				result = "skipped"
				t.Skip("gawk is not installed: awk is compared with GNU awk (apt-get install gawk)")
			}
			for _, prog := range needs(string(src)) {
				if _, err := exec.LookPath(prog); err != nil {
					result = "skipped"
					t.Skipf("%s is not installed: the script compares with it (Debian: apt-get install %s)", prog, debianPackage(prog))
				}
			}
			want := runBash(t, bash, string(src))
			got := runNook(t, ws, name, string(src))
			diff := compare(want, got)
			why, isKnown := knownDiff[name]
			record := strings.TrimSuffix(s, ".sh") + ".known"
			switch {
			case isKnown && diff == "":
				t.Errorf("listed as a known difference (%s) but now identical to bash: take it off knownDiff and delete %s", why, record)
			case isKnown && *updateKnown:
				if err := os.WriteFile(record, []byte(diff), 0o644); err != nil {
					t.Fatal(err)
				}
				result = "known"
			case isKnown:
				rec, err := os.ReadFile(record)
				if err != nil {
					t.Fatalf("known difference (%s) without its record %s (run with -update-known): %v", why, record, err)
				}
				if string(rec) != diff {
					t.Errorf("the known difference (%s) drifted from %s:\n--- recorded\n%s\n--- now\n%s", why, record, rec, diff)
					return
				}
				result = "known"
			case diff != "":
				t.Errorf("differs from bash:\n%s\nnook stderr:\n%s", diff, got.stderr)
			default:
				result = "same"
			}
		})
		switch result {
		case "same":
			same++
		case "skipped":
			skipped++
		case "known":
			known++
		}
	}
	for name := range knownDiff {
		if !seen[name] {
			t.Errorf("knownDiff lists %s, which is not a script", name)
		}
	}
	t.Logf("%d scripts: %d identical to bash, %d known differences (as recorded), %d skipped, %d failed or not run",
		len(scripts), same, known, skipped, len(scripts)-same-known-skipped)
}

type outcome struct {
	stdout, stderr string
	code           int
	files          map[string]string // path → content ("<dir>" for directories)
}

func compare(want, got outcome) string {
	var b strings.Builder
	if want.stdout != got.stdout {
		fmt.Fprintf(&b, "stdout:\n--- bash\n%s\n--- nook\n%s\n", want.stdout, got.stdout)
	}
	if want.code != got.code {
		fmt.Fprintf(&b, "exit code: bash %d, nook %d\n", want.code, got.code)
	}
	keys := map[string]bool{}
	for k := range want.files {
		keys[k] = true
	}
	for k := range got.files {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		w, wok := want.files[k]
		g, gok := got.files[k]
		switch {
		case !wok:
			fmt.Fprintf(&b, "file %s: only in nook\n", k)
		case !gok:
			fmt.Fprintf(&b, "file %s: only in bash\n", k)
		case w != g && normalizeArchive(k, w) != normalizeArchive(k, g):
			fmt.Fprintf(&b, "file %s: bash %q, nook %q\n", k, normalizeArchive(k, w), normalizeArchive(k, g))
		}
	}
	return b.String()
}

// normalizeArchive describes a compressed file or an archive by what it
// holds (compressors and tar writers differ byte for byte): the content
// of a gzip file, the members of a tar archive (name, type, size,
// content).
func normalizeArchive(name, data string) string {
	if strings.HasPrefix(data, "SQLite format 3\x00") {
		return dumpSQLite(data)
	}
	if strings.HasSuffix(name, ".zip") {
		zr, err := zip.NewReader(strings.NewReader(data), int64(len(data)))
		if err != nil {
			return "<bad zip>"
		}
		var members []string
		for _, f := range zr.File {
			r, err := f.Open()
			if err != nil {
				return "<bad zip member>"
			}
			c, _ := io.ReadAll(r)
			r.Close()
			members = append(members, fmt.Sprintf("%s %q", f.Name, c))
		}
		sort.Strings(members)
		return "<zip " + strings.Join(members, "; ") + ">"
	}
	isTar := strings.HasSuffix(name, ".tar") || strings.HasSuffix(name, ".tgz") || strings.HasSuffix(name, ".tar.gz")
	if !isTar && !strings.HasSuffix(name, ".gz") {
		return data
	}
	b := []byte(data)
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return "<bad gzip>"
		}
		b, err = io.ReadAll(zr)
		if err != nil {
			return "<bad gzip data>"
		}
		if !isTar {
			return "<gzip of " + string(b) + ">"
		}
	}
	if !isTar {
		return data
	}
	tr := tar.NewReader(bytes.NewReader(b))
	var members []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "<bad tar>"
		}
		c, _ := io.ReadAll(tr)
		members = append(members, fmt.Sprintf("%s %c %d %q %s", h.Name, h.Typeflag, h.Size, c, h.Linkname))
	}
	sort.Strings(members)
	return "<tar " + strings.Join(members, "; ") + ">"
}

// awkDir holds "awk" as a link to gawk, so that bash's awk is GNU awk
// whatever the host's default is (mawk on Debian).
var awkDir = func() string {
	gawk, err := exec.LookPath("gawk")
	if err != nil {
		return ""
	}
	dir, err := os.MkdirTemp("", "nook-awk")
	if err != nil {
		return ""
	}
	if os.Symlink(gawk, filepath.Join(dir, "awk")) != nil {
		return ""
	}
	return dir
}()

func runBash(t *testing.T, bash, src string) outcome {
	dir := t.TempDir()
	for p, data := range seedFiles {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", src)
	cmd.Dir = dir
	path := "/usr/bin:/bin"
	if awkDir != "" {
		path = awkDir + ":" + path
	}
	cmd.Env = []string{"LC_ALL=C", "HOME=" + dir, "PATH=" + path, "TZ=UTC"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			tgt, _ := os.Readlink(p)
			files[rel] = "<link " + tgt + ">"
		case d.IsDir():
			files[rel] = "<dir>"
		default:
			b, _ := os.ReadFile(p)
			files[rel] = strings.ReplaceAll(string(b), dir, "/workspace")
		}
		return nil
	})
	return outcome{stdout: strings.ReplaceAll(out.String(), dir, "/workspace"), stderr: errb.String(), code: code, files: files}
}

func runNook(t *testing.T, ws *nook.Workspace, name, src string) outcome {
	ctx := context.Background()
	root := "/workspace/" + name
	fsys := ws.FS()
	fsys.MkdirAll(ctx, root, 0o755)
	for p, data := range seedFiles {
		if err := fsys.WriteFile(ctx, root+"/"+p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	// Each script gets its own directory; it is $HOME and the cwd, and
	// paths printed under it are shown as /workspace.
	script := "HOME=" + root + "; " + src // same line: $LINENO as in bash
	r := run(t, ws, script, execOpts(root))
	files := map[string]string{}
	var walk func(dir, rel string)
	walk = func(dir, rel string) {
		l, err := fsys.ReadDir(ctx, dir, vfs.Page{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Entries {
			r := e.Name
			if rel != "" {
				r = rel + "/" + e.Name
			}
			switch e.Kind {
			case vfs.TypeDir:
				files[r] = "<dir>"
				walk(dir+"/"+e.Name, r)
			case vfs.TypeSymlink:
				fi, _ := fsys.Lstat(ctx, dir+"/"+e.Name)
				files[r] = "<link " + fi.Target + ">"
			default:
				b, _ := fsys.ReadFile(ctx, dir+"/"+e.Name)
				files[r] = strings.ReplaceAll(string(b), root, "/workspace")
			}
		}
	}
	walk(root, "")
	return outcome{stdout: strings.ReplaceAll(string(r.Stdout), root, "/workspace"), stderr: string(r.Stderr), code: r.ExitCode, files: files}
}

// dumpSQLite describes a database file by its schema and rows (SQLite
// versions write different header fields, so files are compared by what
// they hold).
func dumpSQLite(data string) string {
	c, err := sqlite3.Open(":memory:")
	if err != nil {
		return "<sqlite: " + err.Error() + ">"
	}
	defer c.Close()
	if err := serdes.Deserialize(c, "main", []byte(data)); err != nil {
		return "<bad sqlite: " + err.Error() + ">"
	}
	var b strings.Builder
	var tables []string
	st, _, err := c.Prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY name")
	if err != nil {
		return "<bad sqlite: " + err.Error() + ">"
	}
	for st.Step() {
		fmt.Fprintf(&b, "%s %s: %s\n", st.ColumnText(0), st.ColumnText(1), st.ColumnText(2))
		if st.ColumnText(0) == "table" {
			tables = append(tables, st.ColumnText(1))
		}
	}
	st.Close()
	for _, t := range tables {
		rows, _, err := c.Prepare(`SELECT * FROM "` + t + `"`)
		if err != nil {
			return "<bad sqlite: " + err.Error() + ">"
		}
		for rows.Step() {
			fmt.Fprintf(&b, "%s:", t)
			for i := range rows.ColumnCount() {
				fmt.Fprintf(&b, " %q", rows.ColumnText(i))
			}
			b.WriteByte('\n')
		}
		rows.Close()
	}
	return b.String()
}

// debianPackage is the Debian package that installs prog.
func debianPackage(prog string) string {
	if prog == "node" {
		return "nodejs"
	}
	return prog
}
