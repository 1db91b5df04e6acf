// Command shellbench measures the shell backend end to end through the
// runtime (Exec → Result on a workspace file, the run recorded) on a list
// of scripts, and the same scripts under GNU bash over a host directory.
// It prints one line per script, "script NAME key=value ...".
// conformance/bench/shell.sh runs it next to just-bash and prints ratios.
//
//	shellbench -seed DIR                       write the seed tree to DIR
//	shellbench -mode nook -scripts LIST -n N   time the shell backend
//	shellbench -mode bash -scripts LIST -n N   time GNU bash (bash -c)
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// seed is the tree every script starts from (the differential suite's).
var seed = map[string]string{
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

func main() {
	mode := flag.String("mode", "nook", "nook or bash")
	seedDir := flag.String("seed", "", "write the seed tree to this directory and exit")
	list := flag.String("scripts", "", "file listing script paths, one a line")
	dir := flag.String("dir", os.TempDir(), "scratch directory")
	n := flag.Int("n", 20, "timed runs per script")
	flag.Parse()
	if *seedDir != "" {
		if err := writeSeed(*seedDir); err != nil {
			log.Fatal(err)
		}
		return
	}
	scripts, err := readList(*list)
	if err != nil {
		log.Fatal(err)
	}
	switch *mode {
	case "nook":
		benchNook(*dir, scripts, *n)
	case "bash":
		benchBash(*dir, scripts, *n)
	default:
		log.Fatalf("unknown mode %q", *mode)
	}
}

func writeSeed(dir string) error {
	for p, data := range seed {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func readList(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

func p50(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

func name(p string) string { return strings.TrimSuffix(filepath.Base(p), ".sh") }

func benchNook(dir string, scripts []string, n int) {
	ctx := context.Background()
	db := filepath.Join(dir, "shellbench.db")
	os.Remove(db)
	ws, err := nook.Open(ctx, db, nook.WithBackends(shell.New(shell.Options{})),
		nook.WithRuntime(runtime.Options{MaxRetained: 1000}))
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	fsys := ws.FS()
	k := 0
	for _, s := range scripts {
		src, err := os.ReadFile(s)
		if err != nil {
			log.Fatal(err)
		}
		var d []time.Duration
		code := 0
		for i := -2; i < n; i++ { // two warm-up runs
			k++
			root := fmt.Sprintf("/workspace/r%d", k)
			for p, data := range seed {
				if err := fsys.WriteFile(ctx, root+"/"+p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
					log.Fatal(err)
				}
			}
			t := time.Now()
			h, err := ws.Runtime().Exec(ctx, string(src), runtime.ExecOptions{Backend: "shell", Cwd: root,
				Env: map[string]string{"LC_ALL": "C", "TZ": "UTC", "HOME": root}})
			if err != nil {
				log.Fatal(err)
			}
			res, err := h.Result(ctx)
			if err != nil {
				log.Fatal(err)
			}
			if i >= 0 {
				d = append(d, time.Since(t))
			}
			code = res.ExitCode
		}
		fmt.Printf("script %s p50_us=%.1f code=%d\n", name(s), float64(p50(d).Nanoseconds())/1e3, code)
	}
}

func benchBash(dir string, scripts []string, n int) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		log.Fatal(err)
	}
	k := 0
	for _, s := range scripts {
		src, err := os.ReadFile(s)
		if err != nil {
			log.Fatal(err)
		}
		var d []time.Duration
		code := 0
		for i := -2; i < n; i++ {
			k++
			root := filepath.Join(dir, fmt.Sprintf("bash-r%d", k))
			if err := writeSeed(root); err != nil {
				log.Fatal(err)
			}
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", string(src))
			cmd.Dir = root
			cmd.Env = []string{"LC_ALL=C", "TZ=UTC", "HOME=" + root, "PATH=" + os.Getenv("PATH")}
			t := time.Now()
			err := cmd.Run()
			if i >= 0 {
				d = append(d, time.Since(t))
			}
			code = 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			os.RemoveAll(root)
		}
		fmt.Printf("script %s p50_us=%.1f code=%d\n", name(s), float64(p50(d).Nanoseconds())/1e3, code)
	}
}
