package impact_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/impact"
	"github.com/google/go-cmp/cmp"
)

// gitRepo makes a repository of files, commits it and tags it base.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		write(t, dir, name, body)
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, dir, "tag", "base")
	return dir
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const prd = "# Decisions\n\nLive range: D1..D2.\n\n| ID | Decision | Status |\n|---|---|---|\n" +
	"| D1 | [One](decisions/D1-one.md) | accepted |\n| D2 | [Two](decisions/D2-two.md) | accepted |\n"

func decision(id, title string, rows ...string) string {
	return "---\nid: " + id + "\nstatus: accepted\ndate: 2026-12-01\n---\n# " + id + ": " + title + "\n\nText.\n\n## Confirmation\n\n" +
		"| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n" + strings.Join(rows, "\n") + "\n"
}

// lines flattens a result as WriteText prints it, with each touch's side.
func lines(r impact.Result) []string {
	var out []string
	for _, d := range r.Decisions {
		for _, t := range d.Touches {
			out = append(out, fmt.Sprintf("%s %s:%d %s %s %s: %s", t.Kind, t.Path, t.Line, t.Side, d.ID, t.Claim, t.Detail))
		}
	}
	return out
}

func compute(t *testing.T, dir string) []string {
	t.Helper()
	r, err := impact.Compute(context.Background(), impact.Options{Dir: dir, Base: "base"})
	if err != nil {
		t.Fatal(err)
	}
	return lines(r)
}

func base() map[string]string {
	return map[string]string{
		"docs/PRD.md": prd,
		"docs/decisions/D1-one.md": decision("D1", "One",
			"| C1 | anchored | `src/**/*.go` | `const limit` | `= 16` | the limit |",
			"| C2 | absent | `src/**/*.go` | `os\\.Exit` | | no exits |"),
		"docs/decisions/D2-two.md": decision("D2", "Two",
			"| C1 | present | `src/**/*.go` | `func screen\\(` | | screens |",
			"| C2 | exec | `scripts/*.sh` | | | runs |"),
		"src/a.go":      "package a\n\nconst limit = 16\n\nfunc screen() {}\n",
		"scripts/go.sh": "#!/bin/sh\n",
	}
}

func TestCompute(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dir string)
		want []string
	}{
		{
			name: "nothing changed",
			edit: func(*testing.T, string) {},
		},
		{
			// The anchored line is replaced by an edited one the claim
			// rests on: one touch, at the new line, not a second for the
			// old line its anchor matched.
			name: "a pinned line edited is one touch",
			edit: func(t *testing.T, dir string) {
				write(t, dir, "src/a.go", "package a\n\nconst limit = 16 // bytes\n\nfunc screen() {}\n")
			},
			want: []string{"pinned-line src/a.go:3 head D1 C1: the line it rests on changed"},
		},
		{
			name: "a pinned line moved to another file",
			edit: func(t *testing.T, dir string) {
				write(t, dir, "src/a.go", "package a\n\nfunc screen() {}\n")
				write(t, dir, "src/b/b.go", "package b\n\nconst limit = 16\n")
				git(t, dir, "add", "-A")
			},
			want: []string{
				"pinned-line src/a.go:3 base D1 C1: a line its Anchor matches was deleted (line 3 at base)",
				"pinned-line src/b/b.go:3 head D1 C1: the line it rests on is new (its file is new)",
			},
		},
		{
			// A .gitattributes that calls Go files binary cannot hide
			// their lines: the patch is read as text.
			name: "a pinned line edited in a file .gitattributes calls binary",
			edit: func(t *testing.T, dir string) {
				write(t, dir, ".gitattributes", "*.go -diff\n")
				git(t, dir, "add", "-A")
				git(t, dir, "commit", "-q", "-m", "x")
				git(t, dir, "tag", "-f", "base")
				write(t, dir, "src/a.go", "package a\n\nconst limit = 16 // bytes\n\nfunc screen() {}\n")
			},
			want: []string{"pinned-line src/a.go:3 head D1 C1: the line it rests on changed"},
		},
		{
			// An absent claim's Anchor added on a code line (check fails
			// it too) is listed; in a comment, where check does not read
			// it, it is not.
			name: "an absent claim's anchor added, in code and in a comment",
			edit: func(t *testing.T, dir string) {
				write(t, dir, "src/a.go", "package a\n\nconst limit = 16\n\nfunc screen() {}\n\n// never os.Exit here\nfunc quit() { os.Exit(1) }\n")
			},
			want: []string{"pinned-line src/a.go:8 head D1 C2: a line its Anchor matches was added"},
		},
		{
			// A comment that names the anchored line, deleted, is not a
			// pinned line: the claim never read it.
			name: "a comment matching an anchor deleted",
			edit: func(t *testing.T, dir string) {
				write(t, dir, "src/a.go", "package a\n\n// const limit is the limit\nconst limit = 16\n\nfunc screen() {}\n")
				git(t, dir, "add", "-A")
				git(t, dir, "commit", "-q", "-m", "x")
				git(t, dir, "tag", "-f", "base")
				write(t, dir, "src/a.go", "package a\n\nconst limit = 16\n\nfunc screen() {}\n")
			},
		},
		{
			name: "an exec claim's script loses its mode",
			edit: func(t *testing.T, dir string) {
				sh := filepath.Join(dir, "scripts/go.sh")
				if err := os.Chmod(sh, 0o755); err != nil {
					t.Fatal(err)
				}
				git(t, dir, "add", "-A")
				git(t, dir, "commit", "-q", "-m", "x")
				git(t, dir, "tag", "-f", "base")
				if err := os.Chmod(sh, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			// The claim now fails (the index mode is 100644), so it rests
			// on nothing; the mode of a file it reads changed all the same.
			want: []string{"pinned-line scripts/go.sh:0 head D2 C2: the mode of a file it reads changed from 100755 to 100644"},
		},
		{
			name: "a row deleted, a row added, a Why reworded",
			edit: func(t *testing.T, dir string) {
				write(t, dir, "docs/decisions/D1-one.md", decision("D1", "One",
					"| C1 | anchored | `src/**/*.go` | `const limit` | `= 16` | the limit, in bytes |",
					"| C3 | present | `src/**/*.go` | `package a` | | a package |"))
			},
			want: []string{
				"claim-row docs/decisions/D1-one.md:14 head D1 C1: its Why changed",
				"claim-row docs/decisions/D1-one.md:15 base D1 C2: the row was deleted (line 15 at base)",
				"claim-row docs/decisions/D1-one.md:15 head D1 C3: the row is new",
			},
		},
		{
			name: "a decision deleted, file and row",
			edit: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "docs/decisions/D2-two.md")); err != nil {
					t.Fatal(err)
				}
				write(t, dir, "docs/PRD.md", strings.Replace(prd, "| D2 | [Two](decisions/D2-two.md) | accepted |\n", "", 1))
			},
			want: []string{
				"decision-text docs/PRD.md:8 base D2 : its register row was deleted (line 8 at base)",
				"decision-text docs/decisions/D2-two.md:0 base D2 : its file was deleted",
			},
		},
		{
			// A record whose name is its collection's, not D<n>-<slug>.md,
			// is found deleted through the base's register row.
			name: "a linked record deleted, file and row",
			edit: func(t *testing.T, dir string) {
				write(t, dir, "docs/decisions/0003-three.md", "# Three\n\n* Status: accepted\n\nText.\n")
				write(t, dir, "docs/PRD.md", prd+"| D3 | [Three](decisions/0003-three.md) | accepted |\n")
				git(t, dir, "add", "-A")
				git(t, dir, "commit", "-q", "-m", "x")
				git(t, dir, "tag", "-f", "base")
				if err := os.Remove(filepath.Join(dir, "docs/decisions/0003-three.md")); err != nil {
					t.Fatal(err)
				}
				write(t, dir, "docs/PRD.md", prd)
			},
			want: []string{
				"decision-text docs/PRD.md:9 base D3 : its register row was deleted (line 9 at base)",
				"decision-text docs/decisions/0003-three.md:0 base D3 : its file was deleted",
			},
		},
		{
			name: "a new decision",
			edit: func(t *testing.T, dir string) {
				write(t, dir, "docs/decisions/D3-three.md", decision("D3", "Three", "| C1 | present | `src/**/*.go` | `func screen\\(` | | screens |"))
				write(t, dir, "docs/PRD.md", prd+"| D3 | [Three](decisions/D3-three.md) | accepted |\n")
				git(t, dir, "add", "-A")
			},
			want: []string{
				"decision-text docs/PRD.md:9 head D3 : its register row is new",
				"decision-text docs/decisions/D3-three.md:0 head D3 : the decision is new since base (1 claim)",
			},
		},
		{
			name: "a pinned file whose name holds a newline and a quote",
			edit: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "src/a.go")); err != nil {
					t.Fatal(err)
				}
				write(t, dir, "src/a\n\"b\".go", "package a\n\nconst limit = 16\n\nfunc screen() {}\n")
				git(t, dir, "add", "-A")
				git(t, dir, "commit", "-q", "-m", "x")
				git(t, dir, "tag", "-f", "base")
				write(t, dir, "src/a\n\"b\".go", "package a\n\nconst limit = 16 // é\n\nfunc screen() {}\n")
			},
			want: []string{"pinned-line src/a\n\"b\".go:3 head D1 C1: the line it rests on changed"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gitRepo(t, base())
			tc.edit(t, dir)
			if diff := cmp.Diff(tc.want, compute(t, dir)); diff != "" {
				t.Errorf("touches (-want +got):\n%s", diff)
			}
		})
	}
}

// TestComputeSubdirectory: a register in a sub-directory of a repository
// sees its own paths, and nothing outside it.
func TestComputeSubdirectory(t *testing.T) {
	files := map[string]string{"outside.go": "package o\n\nconst limit = 16\n"}
	for name, body := range base() {
		files["sub/"+name] = body
	}
	dir := gitRepo(t, files)
	write(t, dir, "sub/src/a.go", "package a\n\nconst limit = 16 // bytes\n\nfunc screen() {}\n")
	write(t, dir, "outside.go", "package o\n\nconst limit = 17\n")
	got := compute(t, filepath.Join(dir, "sub"))
	want := []string{"pinned-line src/a.go:3 head D1 C1: the line it rests on changed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("touches (-want +got):\n%s", diff)
	}
}

func TestComputeRefuses(t *testing.T) {
	dir := gitRepo(t, base())
	plain := t.TempDir()
	for _, tc := range []struct {
		name string
		o    impact.Options
		err  string
	}{
		{"no base", impact.Options{Dir: dir}, "--base is required"},
		{"an option", impact.Options{Dir: dir, Base: "--output=/tmp/x"}, `--base "--output=/tmp/x" begins with '-'`},
		{"a newline", impact.Options{Dir: dir, Base: "base\n-p"}, "holds a newline"},
		{"no such commit", impact.Options{Dir: dir, Base: "nope"}, "--base nope is not a commit here"},
		{"a tree, not a commit", impact.Options{Dir: dir, Base: "base^{tree}"}, "is not a commit here"},
		{"not git", impact.Options{Dir: plain, Base: "base"}, "not inside a git work tree"},
		{"head not checked out", impact.Options{Dir: dir, Base: "base", Head: "base~0^{tree}"}, "--head"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := impact.Compute(context.Background(), tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want one saying %q", err, tc.err)
			}
		})
	}
	// --head names the checked-out commit: accepted while the tracked
	// files are as committed, refused once one changed.
	if _, err := impact.Compute(context.Background(), impact.Options{Dir: dir, Base: "base", Head: "HEAD"}); err != nil {
		t.Fatalf("--head HEAD on a clean tree: %v", err)
	}
	write(t, dir, "src/a.go", "package a\n")
	if _, err := impact.Compute(context.Background(), impact.Options{Dir: dir, Base: "base", Head: "HEAD"}); err == nil || !strings.Contains(err.Error(), "tracked files changed") {
		t.Fatalf("--head HEAD on a changed tree: err = %v", err)
	}
}

// TestComputeInline: an inline register's row is its decision's text,
// and its claims file's rows are claim rows.
func TestComputeInline(t *testing.T) {
	dir := gitRepo(t, map[string]string{
		".claimslint.yml": "inline:\n  status: accepted\nrequire_claims: false\n",
		"docs/PRD.md":     "# Register, live range D1..D2\n\n| ID | Decision | Rationale |\n|---|---|---|\n| **D1** | Frames are answered. | clients wait |\n| D2 | Ids are echoed. | |\n",
		"docs/claims/D1.md": "# D1: claims\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n" +
			"| C1 | present | `src/*.go` | `func answer\\(` | | |\n",
		"src/a.go": "package a\n\nfunc answer() {}\n",
	})
	write(t, dir, "docs/PRD.md", "# Register, live range D1..D2\n\n| ID | Decision | Rationale |\n|---|---|---|\n| **D1** | Frames are answered. | clients wait |\n| D2 | Ids are echoed back. | |\n")
	write(t, dir, "docs/claims/D1.md", "# D1: claims\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n"+
		"| C1 | present | `src/*.go` | `func answer\\(` | | a client waits |\n")
	write(t, dir, "src/a.go", "package a\n\nfunc answer() { _ = 1 }\n")
	want := []string{
		"claim-row docs/claims/D1.md:7 head D1 C1: its Why changed",
		"pinned-line src/a.go:3 head D1 C1: the line it rests on changed",
		"decision-text docs/PRD.md:6 head D2 : its register row changed",
	}
	if diff := cmp.Diff(want, compute(t, dir)); diff != "" {
		t.Errorf("touches (-want +got):\n%s", diff)
	}
}
