package mcp_test

import (
	"bytes"
	"context"
	"flag"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/conformance/*.txtar")

// syncBuffer is stdout as the server sees it; it is written concurrently.
type syncBuffer = mcptest.SyncBuffer

const seedIssue = mcptest.SeedIssue

// newStore opens a tracker in a temporary directory holding one issue.
func newStore(t testing.TB) (*docket.Service, string) { return mcptest.NewStore(t) }

// serve runs one session over in and returns everything written to stdout
// once the server has returned (stdin closed after the last byte). A line
// "#await TEXT" in in is not sent: the client waits until stdout holds
// TEXT (as many times as it was awaited so far) before it writes on, so a
// file can cancel a request that is known to be in flight.
func serve(t testing.TB, store docket.Store, in []byte) []byte {
	t.Helper()
	return serveDir(t, store, t.TempDir(), in)
}

// serveDir is serve with dir as the repository of the register tools.
func serveDir(t testing.TB, store docket.Store, dir string, in []byte) []byte {
	t.Helper()
	return serveWith(t, serveOptions{Store: store, Dir: dir}, in)
}

// serveWith is serve with the options o (In and Out are set here).
func serveWith(t testing.TB, o serveOptions, in []byte) []byte {
	t.Helper()
	return mcptest.Converse(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		o.In, o.Out = r, w
		return serveStdio(ctx, o)
	}, in)
}

const initLines = mcptest.InitLines

// sortedLines splits out into lines and sorts them: replies to different
// ids may come in any order, and each must be exact.
func sortedLines(out []byte) []string {
	var ls []string
	for _, l := range strings.SplitAfter(string(out), "\n") {
		if l != "" {
			ls = append(ls, l)
		}
	}
	slices.Sort(ls)
	return ls
}

// TestConformance runs each testdata/conformance file twice: its client
// lines alone (before initialize), and after an initialize handshake. The
// server's bytes must equal the file's "pre" and "post" sections (sorted by
// line; "post" defaults to "pre"). With -update the sections are rewritten.
func TestConformance(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/conformance/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string][]byte{}
			for _, f := range ar.Files {
				sections[f.Name] = f.Data
			}
			in, ok := sections["in"]
			if !ok {
				t.Fatal("no -- in -- section")
			}
			run := func(prefix string) string {
				store, _ := newStore(t)
				o := serveOptions{Store: store, Dir: t.TempDir()}
				if bytes.Contains(ar.Comment, []byte("[open listens]")) {
					o = withListChanged(o) // a listen stays open
				}
				out := serveWith(t, o, append([]byte(prefix), in...))
				var keep []string
				for _, l := range sortedLines(out) {
					if !strings.Contains(l, `"id":"init-0"`) {
						keep = append(keep, l)
					}
				}
				return strings.Join(keep, "")
			}
			pre, post := run(""), run(initLines)
			if *update {
				ar.Files = []txtar.File{{Name: "in", Data: in}, {Name: "pre", Data: []byte(pre)}}
				if post != pre {
					ar.Files = append(ar.Files, txtar.File{Name: "post", Data: []byte(post)})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantPost, ok := sections["post"]
			if !ok {
				wantPost = sections["pre"]
			}
			if got, want := pre, string(sections["pre"]); got != want {
				t.Errorf("before initialize:\n--- got\n%s--- want\n%s", got, want)
			}
			if got, want := post, string(wantPost); got != want {
				t.Errorf("after initialize:\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}
