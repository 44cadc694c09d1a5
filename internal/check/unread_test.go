package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
)

// TestNoSilentSkip (D68): no file a claim's Path names goes unread for
// what it holds. A Latin-1 byte or a NUL is read as bytes, so a forbidden
// line in it is found; a file over MaxFileSize or a link is not read, and
// every absent, anchored and anchored-every claim over it fails at its
// Path cell, while a present claim does not (a file it did not read can
// only hide a line it would have rested on). Each unread file is one
// warning. A test file an absent claim does not read is no finding.
func TestNoSilentSkip(t *testing.T) {
	t.Parallel()
	big := "package src\n\nfunc big() { eval() }\n" + strings.Repeat("// filler\n", check.MaxFileSize/10+1)
	for _, tc := range []struct {
		name, kind, require string
		file, content       string
		link                bool
		want                []string // "error: " or "warning: " and a message fragment, in order
	}{
		{name: "latin-1 absent", kind: "absent", file: "src/l.go", content: "package src // caf\xe9\nfunc l() { eval() }\n",
			want: []string{"error: forbidden `eval\\(` is present"}},
		{name: "binary absent", kind: "absent", file: "src/b.go", content: "package src\x00\x01\nfunc b() { eval() }\n",
			want: []string{"error: forbidden `eval\\(` is present"}},
		{name: "binary without the anchor", kind: "absent", file: "src/b.png", content: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
			want: nil},
		{name: "big absent", kind: "absent", file: "src/big.go", content: big,
			want: []string{"error: Path `src/*` names a file claimslint could not read: src/big.go (larger than 4 MiB); an absent claim", "warning: not read: larger than 4 MiB"}},
		{name: "big anchored", kind: "anchored", file: "src/big.go", content: big,
			want: []string{"error: Path `src/*` names a file claimslint could not read: src/big.go (larger than 4 MiB); an anchored claim", "warning: not read"}},
		{name: "big anchored-every", kind: "anchored-every", require: "`\\(\\) \\{\\}`", file: "src/big.go", content: big,
			want: []string{"error: Path `src/*` names a file claimslint could not read: src/big.go (larger than 4 MiB); an anchored-every claim", "warning: not read"}},
		{name: "big present", kind: "present", file: "src/big.go", content: big,
			want: []string{"warning: not read: larger than 4 MiB"}},
		{name: "link absent", kind: "absent", file: "src/ln.go", link: true,
			want: []string{"error: Path `src/*` names a file claimslint could not read: src/ln.go (a symbolic link, not followed)", "warning: not read: a symbolic link, not followed"}},
		{name: "big test file, absent does not read tests", kind: "absent", file: "src/big_test.go", content: big,
			want: []string{"warning: not read"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			row := "| C1 | " + tc.kind + " | `src/*` | `func a\\(` | " + tc.require + " |\n"
			if tc.kind == "absent" {
				row = "| C1 | absent | `src/*` | `eval\\(` | |\n"
			}
			dir := writeTree(t, map[string]string{
				"docs/PRD.md":            register1,
				"docs/decisions/D1-x.md": decision1(row),
				"src/a.go":               "package src\n\nfunc a() {}\n",
			})
			p := filepath.Join(dir, filepath.FromSlash(tc.file))
			if tc.link {
				if err := os.Symlink("a.go", p); err != nil {
					t.Skipf("no symbolic links here: %v", err)
				}
			} else if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := check.Run(check.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				got = append(got, string(f.Severity)+": "+f.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("findings:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("finding %d = %q, want it to start %q", i, got[i], w)
				}
			}
			if diag.Errors(res.Findings) == 0 && strings.HasPrefix(strings.Join(tc.want, ""), "error") {
				t.Errorf("the run would pass")
			}
		})
	}
}
