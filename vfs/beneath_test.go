package vfs

import (
	"context"
	"testing"
)

func TestResolveBeneath(t *testing.T) {
	f := openTest(t)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.WriteFile(ctx, "/w/d/file", []byte("x"), &WriteOptions{MkdirAll: true}))
	must(f.WriteFile(ctx, "/secret", []byte("s"), nil))
	must(f.Symlink(ctx, "d", "/w/rel"))                // inside
	must(f.Symlink(ctx, "/w/d/file", "/w/abs"))        // absolute, inside
	must(f.Symlink(ctx, "../secret", "/w/out"))        // leaves
	must(f.Symlink(ctx, "/w/out", "/w/chain"))         // a chain that leaves
	must(f.Symlink(ctx, "../../w/d", "/w/d/back"))     // up and back in: lexically inside
	must(f.Symlink(ctx, "loop", "/w/loop"))            // a loop
	must(f.Symlink(ctx, "file/x", "/w/d/throughfile")) // through a file
	cases := []struct {
		in     string
		follow bool
		want   string
		code   Errno
	}{
		{"/w/d/file", true, "/w/d/file", ""},
		{"/w/rel/file", true, "/w/d/file", ""},
		{"/w/rel", false, "/w/rel", ""},
		{"/w/rel", true, "/w/d", ""},
		{"/w/abs", true, "/w/d/file", ""},
		{"/w/out", false, "/w/out", ""},
		{"/w/out", true, "", EACCES},
		{"/w/chain", true, "", EACCES},
		{"/w/out/x", false, "", EACCES},
		{"/w/d/back/file", true, "/w/d/file", ""},
		{"/w/loop", true, "", ELOOP},
		{"/w/missing/a/b", true, "/w/missing/a/b", ""},
		{"/w/d/nofile", true, "/w/d/nofile", ""},
		{"/w/d/file/x", true, "", ENOTDIR},
		{"/secret", true, "", EACCES},
		{"/w", true, "/w", ""},
	}
	for _, c := range cases {
		got, err := f.ResolveBeneath(ctx, "/w", c.in, c.follow)
		if Code(err) != c.code || (c.code == "" && got != c.want) {
			t.Errorf("%s follow=%v: got %q %v, want %q %s", c.in, c.follow, got, err, c.want, c.code)
		}
		// The same walk in a View, and what the View then answers for
		// the path it returned (from the walk it remembered) is what the
		// FS answers.
		must(f.View(ctx, func(v *View) error {
			got, err := v.ResolveBeneath("/w", c.in, c.follow)
			if Code(err) != c.code || (c.code == "" && got != c.want) {
				t.Errorf("View: %s follow=%v: got %q %v, want %q %s", c.in, c.follow, got, err, c.want, c.code)
			}
			if err != nil {
				return nil
			}
			for _, follow := range []bool{true, false} {
				var want, vi *FileInfo
				var wantErr, verr error
				if follow {
					want, wantErr = f.Stat(ctx, got)
					vi, verr = v.Stat(got)
				} else {
					want, wantErr = f.Lstat(ctx, got)
					vi, verr = v.Lstat(got)
				}
				if Code(verr) != Code(wantErr) || (verr == nil && *vi != *want) {
					t.Errorf("View: stat %s follow=%v: %+v %v, want %+v %v", got, follow, vi, verr, want, wantErr)
				}
			}
			wantData, wantErr := f.ReadRange(ctx, got, 0, 10)
			data, verr := v.ReadRange(got, 0, 10)
			if Code(verr) != Code(wantErr) || string(data) != string(wantData) {
				t.Errorf("View: read %s: %q %v, want %q %v", got, data, verr, wantData, wantErr)
			}
			return nil
		}))
	}
}
