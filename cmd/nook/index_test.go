package main

import (
	"context"
	"strings"
	"testing"

	"github.com/nookdev/nook/internal/sqldb"
)

// nook index: status, rebuild, check, off and on, and a check that finds
// a corrupted posting list.
func TestIndexCommands(t *testing.T) {
	w := newWS(t)
	w.put("/a.go", "package a\nfunc Needle() {}\n")
	w.put("/b.go", "package b\n")
	w.put("/c/d.txt", "a needle in lower case\n")
	equal(t, "index", w.ok("index"), `trigram index: on
chunks:   0 indexed, 3 not yet (scanned by grep)
blocks:   0, with 0 documents of removed chunks
postings: 0 rows, 0 B
`)
	out := w.ok("index", "rebuild")
	if !strings.HasPrefix(out, "trigram index: on\nchunks:   3 indexed, 0 not yet (scanned by grep)\nblocks:   1, with 0 documents of removed chunks\n") {
		t.Errorf("index rebuild:\n%s", out)
	}
	equal(t, "index check", w.ok("index", "check"), "trigram index: sound\n")
	equal(t, "grep -i with the index", w.ok("grep", "-i", "needle"), "/a.go:2:func Needle() {}\n/c/d.txt:1:a needle in lower case\n")
	equal(t, "grep -E with the index", w.ok("grep", "-E", `func \w+\(`), "/a.go:2:func Needle() {}\n")

	w.ok("rm", "/a.go")
	if out := w.ok("index"); !strings.Contains(out, "chunks:   2 indexed, 0 not yet") || !strings.Contains(out, "with 1 documents of removed chunks") {
		t.Errorf("index after rm:\n%s", out)
	}
	equal(t, "index check after rm", w.ok("index", "check"), "trigram index: sound\n")

	equal(t, "index off", w.ok("index", "off"), `trigram index: off
chunks:   0 indexed, 2 not yet (scanned by grep)
blocks:   0, with 0 documents of removed chunks
postings: 0 rows, 0 B
`)
	equal(t, "grep -i without the index", w.ok("grep", "-i", "needle"), "/c/d.txt:1:a needle in lower case\n")
	w.fail(1, "nook: the trigram index is off in this workspace (SetIndex) (EPERM)\n", "index", "rebuild")
	if out := w.ok("index", "on"); !strings.HasPrefix(out, "trigram index: on\nchunks:   0 indexed, 2 not yet") {
		t.Errorf("index on:\n%s", out)
	}
	w.ok("index", "rebuild")
	if out := w.ok("index", "--json"); !strings.Contains(out, `"indexed":2`) || !strings.Contains(out, `"enabled":true`) {
		t.Errorf("index --json: %s", out)
	}

	// Corrupt one posting list behind nook's back.
	db, err := sqldb.Open(context.Background(), w.db, sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Write(context.Background(), func(c *sqldb.Conn) error {
		return c.Exec(`UPDATE vfs_tri_post SET lists = x'00' WHERE (blk, grp) = (SELECT blk, grp FROM vfs_tri_post ORDER BY blk, grp LIMIT 1)`)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := w.run("index", "check")
	// The list itself, and the chunk that lost a trigram with it.
	want := result{code: 1, stderr: "nook: 2 problems in the trigram index (EIO)\n",
		stdout: "block 0: trigrams 0a62xx: corrupt posting list\n" +
			"block 0, document 1: chunk 5484634219926017415: the postings give 7 trigrams, its data has 8\n"}
	if r != want {
		t.Errorf("index check of a corrupted index: %+v, want %+v", r, want)
	}
	w.ok("index", "rebuild")
	equal(t, "index check after rebuild", w.ok("index", "check"), "trigram index: sound\n")
	w.fail(2, "", "index", "compact")
}
