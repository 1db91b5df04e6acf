package awk

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runAwk runs src on input with operands args; files are a map of name
// to content for getline < and print >.
func runAwk(t testing.TB, src, input string, args []string, assigns []string, files map[string]string) (string, int, error) {
	prog, err := Parse(src)
	if err != nil {
		return "", 1, err
	}
	var out, errb bytes.Buffer
	if files == nil {
		files = map[string]string{}
	}
	cfg := &Config{
		Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errb,
		Open: func(name string) (io.ReadCloser, error) {
			s, ok := files[name]
			if !ok {
				return nil, errors.New("No such file or directory")
			}
			return io.NopCloser(strings.NewReader(s)), nil
		},
		Create: func(name string, appendTo bool) (io.WriteCloser, error) {
			if !appendTo {
				files[name] = ""
			}
			return &fileWriter{files, name}, nil
		},
		Exec: func(cmd string, stdin io.Reader, stdout io.Writer) int {
			// a tiny stand-in: "cat" copies, "sort" sorts lines
			b, _ := io.ReadAll(stdin)
			switch cmd {
			case "cat":
				stdout.Write(b)
			case "sort":
				l := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
				for i := range l {
					for j := i + 1; j < len(l); j++ {
						if l[j] < l[i] {
							l[i], l[j] = l[j], l[i]
						}
					}
				}
				io.WriteString(stdout, strings.Join(l, "\n")+"\n")
			case "echo hi":
				io.WriteString(stdout, "hi\n")
			default:
				return 127
			}
			return 0
		},
		Environ:  []string{"HOME=/home/x"},
		MaxBytes: 1 << 20,
	}
	code, err := Run(prog, cfg, args, assigns)
	return out.String(), code, err
}

type fileWriter struct {
	files map[string]string
	name  string
}

func (w *fileWriter) Write(p []byte) (int, error) { w.files[w.name] += string(p); return len(p), nil }
func (w *fileWriter) Close() error                { return nil }

type awkCase struct {
	name, src, in string
	want          string
}

var cases = []awkCase{
	{"print", `{print}`, "a b\nc\n", "a b\nc\n"},
	{"fields", `{print $2, $1; print NF}`, "a b c\n", "b a\n3\n"},
	{"nf last", `{print $NF, $(NF-1)}`, "a b c\n", "c b\n"},
	{"sum", `{s += $1} END {print s, NR}`, "1\n2\n3.5\n", "6.5 3\n"},
	{"regex pattern", `/b/`, "abc\nxyz\nbb\n", "abc\nbb\n"},
	{"range", `/start/,/end/`, "a\nstart\nb\nend\nc\n", "start\nb\nend\n"},
	{"expr pattern", `$1 > 2`, "1\n3\n10\n2\n", "3\n10\n"},
	{"strnum compare", `$1 == "10"`, "10\n10.0\n", "10\n"},
	{"strnum numeric", `$1 == 10`, "10\n10.0\n1e1\nx\n", "10\n10.0\n1e1\n"},
	{"string compare", `BEGIN{print ("10" < "9"), (10 < 9)}`, "", "1 0\n"},
	{"uninit", `BEGIN{print x+0, "[" x "]", length(x); if (!x) print "false"}`, "", "0 [] 0\nfalse\n"},
	{"concat num", `BEGIN{x = 0.1 + 0.2; print x; y = x ""; print y; print 1e6, 1e16, 2^53, 100/3}`, "", "0.3\n0.3\n1000000 10000000000000000 9007199254740992 33.3333\n"},
	{"ofmt", `BEGIN{OFMT="%.2f"; print 3.14159; x = 3.14159 ""; print x; CONVFMT="%.3g"; y = 3.14159 ""; print y}`, "", "3.14\n3.14159\n3.14\n"},
	{"printf", `BEGIN{printf "%d|%5.2f|%-4s|%04d|%x|%o|%e|%c|%c|%%|%s\n", 3.9, 3.14159, "ab", 42, 255, 8, 12345.678, 65, "hello", "end"}`, "", "3| 3.14|ab  |0042|ff|10|1.234568e+04|A|h|%|end\n"},
	{"printf star", `BEGIN{printf "%*d|%-*s|%.*f\n", 5, 42, 4, "x", 2, 3.14159}`, "", "   42|x   |3.14\n"},
	{"printf g", `BEGIN{printf "%g %g %g %G %g\n", 100000, 1000000, 0.0001, 1e-5, 123.456}`, "", "100000 1e+06 0.0001 1E-05 123.456\n"},
	{"arrays", `{c[$1]++} END {for (k in c) print k, c[k]}`, "b\na\nb\n", "a 1\nb 2\n"},
	{"in delete", `BEGIN{a["x"]=1; a["y"]=2; delete a["x"]; print ("x" in a), ("y" in a), length(a); delete a; print length(a)}`, "", "0 1 1\n0\n"},
	{"multidim", `BEGIN{a[1,2]=3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2], a[k]}; if ((1,2) in a) print "yes"}`, "", "1 2 3\nyes\n"},
	{"split", `BEGIN{n = split("a:b:c", arr, ":"); print n, arr[1], arr[3]; n = split("  x  y ", b); print n, b[1] b[2]; n = split("a1b22c", c, /[0-9]+/); print n, c[3]}`, "", "3 a c\n2 xy\n3 c\n"},
	{"substr", `BEGIN{s="hello"; print substr(s,2,3), substr(s,0,2), substr(s,-1,3), substr(s,4), substr(s,10), substr(s,2,-1) "|"}`, "", "ell he hel lo  |\n"},
	{"index length", `BEGIN{print index("hello","ll"), index("a","z"), length("abc"), length()}`, "", "3 0 3 0\n"},
	{"sub gsub", `{n = gsub(/o/, "0"); sub(/l/, "[&]"); print n, $0; s = "aaa"; gsub(/a/, "\\&", s); print s}`, "hello world\n", "2 he[l]l0 w0rld\n&&&\n"},
	{"gsub empty", `BEGIN{s = "abc"; gsub(/x*/, "-", s); print s; t = "abc"; gsub(/b*/, "-", t); print t}`, "", "-a-b-c-\n-a-c-\n"},
	{"gsub field", `{gsub(/a/, "A", $2); print; print NF}`, "xa ya za\n", "xa yA za\n3\n"},
	{"match", `BEGIN{if (match("foobar", /o+b/)) print RSTART, RLENGTH; print match("x", /y/), RSTART, RLENGTH}`, "", "2 3\n0 0 -1\n"},
	{"case", `BEGIN{print toupper("abC1"), tolower("ABc")}`, "", "ABC1 abc\n"},
	{"math", `BEGIN{print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), sin(0), cos(0), atan2(0, -1)}`, "", "3 -3 4 1 0 0 1 3.14159\n"},
	{"sprintf", `BEGIN{s = sprintf("%03d-%s", 7, "x"); print s}`, "", "007-x\n"},
	{"control", `BEGIN{for (i = 0; i < 10; i++) {if (i == 2) continue; if (i == 5) break; printf "%d ", i}; print ""; i = 0; while (i < 3) i++; print i; do { i-- } while (i > 0); print i}`, "", "0 1 3 4 \n3\n0\n"},
	{"next exit", `NR == 2 {next} {print} NR == 3 {exit 3} END {print "end"}`, "a\nb\nc\nd\n", "a\nc\nend\n"},
	{"functions", `function fact(n) { return n <= 1 ? 1 : n * fact(n-1) } function fill(a, n,  i) { for (i = 1; i <= n; i++) a[i] = i*i } BEGIN{print fact(10); fill(sq, 3); print sq[2], sq[3], length(sq)}`, "", "3628800\n4 9 3\n"},
	{"ternary assign ops", `BEGIN{x = 5; x += 2; x *= 3; x -= 1; x /= 4; x %= 3; x ^= 2; print x; y = z = 4; print y, z; print 2^3^2, -2^2}`, "", "4\n4 4\n512 -4\n"},
	{"fs colon", `BEGIN{FS=":"} {print $2}`, "a:b:c\n", "b\n"},
	{"fs regex", `BEGIN{FS="[,;]+"} {print $3, NF}`, "a,,b;c\n", "c 3\n"},
	{"fs tab", `BEGIN{FS="\t"} {print $2}`, "a b\tc d\n", "c d\n"},
	{"ofs rebuild", `BEGIN{OFS="-"} {$1 = $1; print; $5 = "e"; print; NF = 2; print}`, "a b c\n", "a-b-c\na-b-c--e\na-b\n"},
	{"rs para", `BEGIN{RS=""} {print NR": "$1"/"$NF}`, "a b\nc\n\n\nd e\nf\n", "1: a/c\n2: d/f\n"},
	{"rs char", `BEGIN{RS=";"} {print NR, $0}`, "a;b;c", "1 a\n2 b\n3 c\n"},
	{"getline var", `NR == 1 {getline x; print "got", x} {print}`, "1\n2\n3\n", "got 2\n1\n3\n"},
	{"getline file", `BEGIN{while ((getline line < "f") > 0) n++; print n, line; close("f")}`, "", "2 y\n"},
	{"printf redirect", `{print $1 > "out"} END {close("out"); while ((getline l < "out") > 0) print "r", l}`, "a\nb\n", "r a\nr b\n"},
	{"pipe sort", `{print $1 | "sort"} END {close("sort"); print "done"}`, "b\na\nc\n", "a\nb\nc\ndone\n"},
	{"cmd getline", `BEGIN{"echo hi" | getline x; print x}`, "", "hi\n"},
	{"regex dynamic", `{if ($0 ~ "^a.c$") print "m"; if ($0 !~ /z/) print "n"}`, "abc\n", "m\nn\n"},
	{"environ", `BEGIN{print ENVIRON["HOME"]}`, "", "/home/x\n"},
	{"incr field", `{$2++; print; print $1++ + ++$1}`, "1 2\n", "1 3\n4\n"},
	{"concat precedence", `BEGIN{print 1 " " 2+3, "a" (1 < 2)}`, "", "1 5 a1\n"},
	{"regex brackets", `/[[:digit:]]+/ {print "d"} /a[]]b/ {print "b"} /x\/y/ {print "s"}`, "12\na]b\nx/y\n", "d\nb\ns\n"},
	{"uninit field", `{print ($5 == 0), ($5 == ""), NF}`, "a\n", "0 1 1\n"},
	{"length no parens", `length > 2`, "ab\nabc\n", "abc\n"},
	{"semicolons newlines", "BEGIN {\n  x = 1\n  if (x)\n    print \"one\"\n  else\n    print \"other\"\n}\n", "", "one\n"},
	{"print parens", `BEGIN{print("a", "b"); print (1)(2)}`, "", "a b\n12\n"},
	{"getline plain end", `{while ((getline) > 0) last = $0} END {print last, NR}`, "a\nb\nc\n", "c 3\n"},
	{"srand", `BEGIN{srand(1); x = rand(); srand(1); y = rand(); print (x == y), (x >= 0 && x < 1), srand(5)}`, "", "1 1 1\n"},
	{"gensub", `BEGIN{print gensub(/([a-z]+)-([0-9]+)/, "\\2:\\1", "g", "ab-12 cd-34")}`, "", "12:ab 34:cd\n"},
	{"numeric string output", `{x = $1; print x, x+0}`, "0.10\n", "0.10 0.1\n"},
	{"exit code", `BEGIN{exit 4}`, "", ""},
	{"printf no newline", `BEGIN{printf "a"; printf "%s", "b"}`, "", "ab"},
	{"delete in loop", `BEGIN{for (i=0;i<5;i++) a[i]; for (k in a) delete a[k]; print length(a)}`, "", "0\n"},
	{"compare uninit", `BEGIN{if (x == 0 && x == "") print "both"}`, "", "both\n"},
	{"neg zero int", `BEGIN{print -0, 1/3*3, 0.1*3}`, "", "0 1 0.3\n"},
	{"huge int", `BEGIN{print 2^70, 1e20}`, "", "1180591620717411303424 100000000000000000000\n"},
	{"comment", "# c\n{print} # trailing\n", "x\n", "x\n"},
	{"continuation", "BEGIN { x = 1 + \\\n 2; print x }", "", "3\n"},
	{"regex as value", `{x = /b/; print x}`, "abc\nx\n", "1\n0\n"},
	{"not", `BEGIN{print !0, !1, !"", !"a", !x}`, "", "1 0 1 0 1\n"},
	{"printf %i %5s", `BEGIN{printf "%i|%5s|%-5d|%+d\n", 42.7, "ab", 3, 5}`, "", "42|   ab|3    |+5\n"},
	{"assign operand", `{print x, $0}`, "", ""},
}

func TestCases(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"f": "x\ny\n"}
			got, code, err := runAwk(t, c.src, c.in, nil, nil, files)
			if err != nil {
				t.Fatalf("error: %v (code %d)", err, code)
			}
			if got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestAgainstGawk runs the cases under gawk when it is installed, so the
// expectations above stay those of GNU awk.
func TestAgainstGawk(t *testing.T) {
	gawk, err := exec.LookPath("gawk")
	if err != nil {
		t.Skip("gawk is not installed")
	}
	dir := t.TempDir()
	os.WriteFile(dir+"/f", []byte("x\ny\n"), 0o644)
	for _, c := range cases {
		if strings.Contains(c.src, "srand") || strings.Contains(c.src, "| \"sort\"") || strings.Contains(c.src, "for (k in") {
			continue
		}
		cmd := exec.Command(gawk, c.src)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C", "HOME=/home/x"}
		cmd.Stdin = strings.NewReader(c.in)
		out, _ := cmd.Output()
		if string(out) != c.want {
			t.Errorf("%s: gawk gives %q, the case wants %q", c.name, out, c.want)
		}
	}
}

func TestOperandsAndAssigns(t *testing.T) {
	files := map[string]string{"a": "1\n2\n", "b": "3\n"}
	got, _, err := runAwk(t, `{print FILENAME, FNR, NR, $0, x}`, "", []string{"a", "x=5", "b"}, []string{"x=1"}, files)
	if err != nil {
		t.Fatal(err)
	}
	want := "a 1 1 1 1\na 2 2 2 1\nb 1 3 3 5\n"
	if got != want {
		t.Errorf("got %q want %q", got, want)
	}
	_, code, err := runAwk(t, `BEGIN{exit 4}`, "", nil, nil, nil)
	if code != 4 || err != nil {
		t.Errorf("exit code %d err %v", code, err)
	}
	_, code, err = runAwk(t, `{print}`, "", []string{"missing"}, nil, nil)
	if code != 2 || err == nil || !strings.Contains(err.Error(), "No such file") {
		t.Errorf("missing file: code %d err %v", code, err)
	}
	_, _, err = runAwk(t, `BEGIN{x = 0; print 1/x}`, "", nil, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Errorf("division: %v", err)
	}
}

func TestLimits(t *testing.T) {
	_, _, err := runAwk(t, `BEGIN{s = "x"; while (1) s = s s}`, "", nil, nil, nil)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "MaxAllocBytes" {
		t.Errorf("string doubling: %v", err)
	}
	_, _, err = runAwk(t, `BEGIN{while (1) a[i++] = "xxxxxxxxxxxxxxxx"}`, "", nil, nil, nil)
	if !errors.As(err, &le) {
		t.Errorf("array growth: %v", err)
	}
	_, _, err = runAwk(t, `function f(n) { return f(n+1) } BEGIN{f(1)}`, "", nil, nil, nil)
	if !errors.As(err, &le) || le.Limit != "MaxFunctionDepth" {
		t.Errorf("recursion: %v", err)
	}
	prog, _ := Parse(`BEGIN{while (1) n++}`)
	ticks := 0
	stop := errors.New("stop")
	_, err = Run(prog, &Config{Stdout: io.Discard, Stderr: io.Discard, Tick: func() error {
		if ticks++; ticks > 1000 {
			return stop
		}
		return nil
	}}, nil, nil)
	if !errors.Is(err, stop) {
		t.Errorf("tick: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{`BEGIN{`, `{print $}`, `BEGIN{x = }`, `{f(}`, `BEGIN{g()}`, `/abc`, `BEGIN{"abc}`, `{break}`, `function f(a, a) {}`, `BEGIN{getline < }`} {
		if _, err := Parse(src); err == nil {
			t.Errorf("%q parsed", src)
		}
	}
}
