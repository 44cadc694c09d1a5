//go:build unix

package cli_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/cli"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
)

// The attack suite of issue 22, items 1 and 2 (D67): a branch that makes
// docket write outside the clone, and a committed index that docket
// trusted.

// run runs docket in dir with env (NAME=value) and stdin, and fails the
// test when it does not return within 20 s (a FIFO must not hang it).
func runIn(t *testing.T, dir string, env []string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(append([]string{"docket"}, args...), cli.Env{
			Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e,
			Getenv: func(k string) string { return vars[k] },
			Getwd:  func() (string, error) { return dir, nil },
		})
	}()
	select {
	case code := <-done:
		return code, o.String(), e.String()
	case <-time.After(20 * time.Second):
		t.Fatalf("docket %s did not return in 20 s", strings.Join(args, " "))
		return 0, "", ""
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func needGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
}

// tree lists every file under dir with a hash of its content (links as
// their target), for "nothing here changed".
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "-> " + l
		case d.Type().IsRegular():
			b, _ := os.ReadFile(p)
			sum := sha256.Sum256(b)
			out[rel] = string(sum[:])
		case d.IsDir():
			out[rel] = "dir"
		}
		return nil
	})
	return out
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for k, v := range after {
		if before[k] != v {
			t.Errorf("%s: %s was created or changed", what, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			t.Errorf("%s: %s was removed", what, k)
		}
	}
}

const mcpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"issue_list","arguments":{}}}` + "\n"

// TestAttackSymlinkedExport is issue 22's first attack, as written: a
// branch commits .knowledge/t as a link to ../../.., sets tracker.export
// to .knowledge/t/.bash_profile and force-commits an index holding an issue
// titled "x $(touch …)". In a fresh clone at $HOME/src/repo, docket list,
// export --check and mcp wrote $HOME/.bash_profile. Now every command
// refuses the setting, naming it, and writes nothing outside the clone.
func TestAttackSymlinkedExport(t *testing.T) {
	t.Parallel()
	needGit(t)
	home := t.TempDir()
	pwned := filepath.Join(home, "PWNED")
	evil := filepath.Join(t.TempDir(), "evil")
	if err := os.MkdirAll(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, evil, "init", "-q")
	if c, _, e := runIn(t, evil, nil, "", "init", "--prefix", "dk"); c != 0 {
		t.Fatalf("init: %s", e)
	}
	if c, _, e := runIn(t, evil, nil, "", "create", "x $(touch "+pwned+")"); c != 0 {
		t.Fatalf("create: %s", e)
	}
	os.Remove(filepath.Join(evil, ".knowledge", "tracker", "issues.jsonl"))
	if err := os.Symlink("../../..", filepath.Join(evil, ".knowledge", "t")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(evil, ".claimslint.yml"), []byte("tracker:\n  export: .knowledge/t/.bash_profile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, evil, "add", "-A")
	git(t, evil, "add", "-f", ".docket/index.db")
	git(t, evil, "commit", "-q", "-m", "innocent")
	if err := os.MkdirAll(filepath.Join(home, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, filepath.Join(home, "src"), "clone", "-q", evil, "repo")
	repo := filepath.Join(home, "src", "repo")
	if l, err := os.Readlink(filepath.Join(repo, ".knowledge", "t")); err != nil || l != "../../.." {
		t.Fatalf("the clone's link: %q, %v", l, err)
	}
	before := tree(t, home)
	for _, args := range [][]string{{"list"}, {"export", "--check"}, {"mcp"}, {"export"}, {"create", "y"}, {"init"}, {"ready"}, {"show", "dk-x"}} {
		code, _, stderr := runIn(t, repo, []string{"HOME=" + home}, mcpInit, args...)
		if code != cli.ExitBadInput || !strings.Contains(stderr, "tracker.export in .claimslint.yml: refused: .knowledge/t/.bash_profile goes through the symbolic link .knowledge/t") {
			t.Errorf("docket %s: exit %d, stderr %q; want exit 2 naming tracker.export and the link", strings.Join(args, " "), code, stderr)
		}
	}
	if _, err := os.Lstat(filepath.Join(home, ".bash_profile")); err == nil {
		t.Fatal("$HOME/.bash_profile was written")
	}
	sameTree(t, "$HOME", before, tree(t, home))
}

// TestAttackCommittedIndex is issue 22's second attack: a force-committed
// index marked dirty, holding a record the export never showed, made
// export --check (the CI gate) rewrite the export with it and exit 0. Now
// export --check fails and writes nothing, and no command opens the
// committed index: reads come from the export, writes are refused.
func TestAttackCommittedIndex(t *testing.T) {
	t.Parallel()
	needGit(t)
	ctx := context.Background()
	evil := filepath.Join(t.TempDir(), "evil")
	if err := os.MkdirAll(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, evil, "init", "-q")
	runIn(t, evil, nil, "", "init", "--prefix", "dk")
	runIn(t, evil, nil, "", "create", "shown in the pull request")
	export := filepath.Join(evil, ".knowledge", "tracker", "issues.jsonl")
	shown, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	runIn(t, evil, nil, "", "create", "FORGED, never in the export")
	if err := os.WriteFile(export, shown, 0o644); err != nil {
		t.Fatal(err)
	}
	// The index claims the export the pull request shows, with a change
	// waiting to be exported: what a writer that exited 3 leaves.
	x, err := sqlite.OpenIndex(ctx, filepath.Join(evil, ".docket", "index.db"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Write(ctx, func(w docket.Writer) error {
		if err := w.SetMeta("export_hash", docket.Hash(shown)); err != nil {
			return err
		}
		return w.SetMeta("export_dirty", "1")
	}); err != nil {
		t.Fatal(err)
	}
	x.Close()
	git(t, evil, "add", "-A")
	git(t, evil, "add", "-f", ".docket/index.db")
	git(t, evil, "commit", "-q", "-m", "innocent")
	repo := filepath.Join(t.TempDir(), "repo")
	git(t, filepath.Dir(repo), "clone", "-q", evil, repo)

	imp := filepath.Join(repo, importFile(t, repo))
	before := tree(t, repo)
	code, _, stderr := runIn(t, repo, nil, "", "export", "--check")
	if code != cli.ExitNo || !strings.Contains(stderr, "the index is committed to git (.docket/index.db)") {
		t.Errorf("export --check: exit %d, stderr %q; want exit 1 naming the committed index", code, stderr)
	}
	sameTree(t, "the clone after export --check", before, tree(t, repo))

	code, stdout, stderr := runIn(t, repo, nil, "", "list")
	if code != 0 || strings.Contains(stdout, "FORGED") || !strings.Contains(stdout, "shown in the pull request") {
		t.Errorf("list: exit %d, stdout %q; want the export's record only", code, stdout)
	}
	if !strings.Contains(stderr, "docket: warning: the index is committed to git (.docket/index.db)") || !strings.Contains(stderr, "git rm -r .docket") {
		t.Errorf("list does not report the committed index: %q", stderr)
	}
	code, _, stderr = runIn(t, repo, nil, mcpInit, "mcp")
	if code != 0 || !strings.Contains(stderr, "committed to git") {
		t.Errorf("mcp: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runIn(t, repo, nil, "", "create", "z")
	if code != cli.ExitBadInput || !strings.Contains(stderr, "writes are refused, nothing changed") {
		t.Errorf("create: exit %d, stderr %q; want exit 2, nothing changed", code, stderr)
	}
	for _, args := range [][]string{{"export"}, {"init"}, {"import", imp}} {
		if code, _, stderr := runIn(t, repo, nil, "", args...); code != cli.ExitBadInput || !strings.Contains(stderr, "writes are refused") {
			t.Errorf("docket %s: exit %d, %q; want 2, writes refused", strings.Join(args, " "), code, stderr)
		}
	}
	sameTree(t, "the clone after every command", before, tree(t, repo))

	// As the warning says: git rm -r .docket, and the next command builds
	// the index from the export, which knows nothing of the forged record.
	git(t, repo, "rm", "-q", "-r", ".docket")
	git(t, repo, "commit", "-q", "-m", "untrack the index")
	if code, stdout, stderr := runIn(t, repo, nil, "", "list", "--all"); code != 0 || strings.Contains(stdout, "FORGED") || strings.Contains(stderr, "committed") {
		t.Errorf("after git rm: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := runIn(t, repo, nil, "", "export", "--check"); code != 0 {
		t.Errorf("export --check after git rm: exit %d, %s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, ".knowledge", "tracker", "issues.jsonl")); !bytes.Equal(got, shown) {
		t.Errorf("the export changed:\n%s", got)
	}
}

// TestExportCheckWritesNothing: export --check on a fresh clone (an export,
// no index) and on a tracker in use creates, changes and removes no file,
// and still fails while this clone's index holds a change it never
// exported.
func TestExportCheckWritesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	runIn(t, dir, nil, "", "init", "--prefix", "dk")
	runIn(t, dir, nil, "", "create", "one")
	before := tree(t, dir)
	if code, _, stderr := runIn(t, dir, nil, "", "export", "--check"); code != 0 {
		t.Fatalf("export --check: exit %d, %s", code, stderr)
	}
	sameTree(t, "export --check on a tracker in use", before, tree(t, dir))
	// A fresh clone: the export, no index.
	saved := filepath.Join(t.TempDir(), "docket")
	if err := os.Rename(filepath.Join(dir, ".docket"), saved); err != nil {
		t.Fatal(err)
	}
	before = tree(t, dir)
	if code, _, stderr := runIn(t, dir, nil, "", "export", "--check"); code != 0 {
		t.Fatalf("export --check on a fresh clone: exit %d, %s", code, stderr)
	}
	sameTree(t, "export --check on a fresh clone", before, tree(t, dir))
	if err := os.Rename(saved, filepath.Join(dir, ".docket")); err != nil {
		t.Fatal(err)
	}
	// A committed change the export lacks, as exit 3 leaves one: the
	// export is put back to its state before the create.
	export := filepath.Join(dir, ".knowledge", "tracker", "issues.jsonl")
	old, _ := os.ReadFile(export)
	runIn(t, dir, nil, "", "create", "two")
	newer, _ := os.ReadFile(export)
	x, err := sqlite.OpenIndex(context.Background(), filepath.Join(dir, ".docket", "index.db"), 0)
	if err != nil {
		t.Fatal(err)
	}
	x.Write(context.Background(), func(w docket.Writer) error { return w.SetMeta("export_dirty", "1") })
	x.Close()
	if err := os.WriteFile(export, old, 0o644); err != nil {
		t.Fatal(err)
	}
	before = tree(t, dir)
	code, _, stderr := runIn(t, dir, nil, "", "export", "--check")
	if code != cli.ExitNo || !strings.Contains(stderr, "behind the index, which holds a change committed here and never exported") {
		t.Errorf("export --check beside a dirty index: exit %d, %q", code, stderr)
	}
	sameTree(t, "export --check beside a dirty index", before, tree(t, dir))
	if code, _, _ := runIn(t, dir, nil, "", "list"); code != 0 {
		t.Fatal("list")
	}
	if got, _ := os.ReadFile(export); !bytes.Equal(got, newer) {
		t.Errorf("the next command did not write the committed change:\n%s", got)
	}
	if code, _, stderr := runIn(t, dir, nil, "", "export", "--check"); code != 0 {
		t.Errorf("export --check after the repair: exit %d, %s", code, stderr)
	}
}

// TestEveryPathBeneathTheRoot puts a link (or a named pipe) at each path
// docket opens and runs every command over it: each refuses (exit 2,
// naming the path), and nothing outside the repository changes. The
// export and the directories above it, the index directory, the index and
// every file SQLite opens beside it, the lock, the id log, the pending
// journal, the name a damaged index is moved to, the settings that name
// them, and the files init writes.
func TestEveryPathBeneathTheRoot(t *testing.T) {
	t.Parallel()
	commands := [][]string{{"init"}, {"create", "x"}, {"list"}, {"show", "dk-aaa"}, {"update", "dk-aaa", "-p", "1"}, {"export"},
		{"export", "--check"}, {"export", "--format", "beads"}, {"import", "REPO/import.jsonl"}, {"ready"}, {"mcp"}}
	link := func(target string) func(t *testing.T, repo, outside, rel string) {
		return func(t *testing.T, repo, outside, rel string) {
			p := filepath.Join(repo, rel)
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, target), p); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name, rel string
		make      func(t *testing.T, repo, outside, rel string)
		env       []string
		commands  [][]string
		want      string
	}{
		// The control: with no link, every command works.
		{name: "no link", make: func(*testing.T, string, string, string) {}},
		{name: "export", rel: ".knowledge/tracker/issues.jsonl", make: link("victim"), want: ".knowledge/tracker/issues.jsonl is a symbolic link"},
		{name: "export directory", rel: ".knowledge/tracker", make: link("dir"), want: "goes through the symbolic link .knowledge/tracker"},
		{name: "export's parent", rel: ".knowledge", make: link("dir"), want: "goes through the symbolic link .knowledge"},
		{name: "index directory", rel: ".docket", make: link("dir"), want: "goes through the symbolic link .docket"},
		{name: "index", rel: ".docket/index.db", make: link("victim"), want: ".docket/index.db is a symbolic link"},
		{name: "write-ahead log", rel: ".docket/index.db-wal", make: link("new-wal"), want: ".docket/index.db-wal is a symbolic link"},
		{name: "shared memory", rel: ".docket/index.db-shm", make: link("new-shm"), want: ".docket/index.db-shm is a symbolic link"},
		{name: "rollback journal", rel: ".docket/index.db-journal", make: link("new-journal"), want: ".docket/index.db-journal is a symbolic link"},
		{name: "lock", rel: ".docket/index.db.lock", make: link("new-lock"), want: ".docket/index.db.lock is a symbolic link"},
		{name: "id log", rel: ".docket/index.db.ids", make: link("new-ids"), want: ".docket/index.db.ids is a symbolic link"},
		{name: "pending journal", rel: ".docket/index.db.pending", make: link("victim"), want: ".docket/index.db.pending is a symbolic link"},
		{name: "damaged index's place", rel: ".docket/index.db.corrupt", make: link("new-corrupt"), want: ".docket/index.db.corrupt is a symbolic link"},
		{name: "export as a named pipe", rel: ".knowledge/tracker/issues.jsonl", make: func(t *testing.T, repo, _, rel string) {
			p := filepath.Join(repo, rel)
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, want: "is not a regular file"},
		{name: "tracker.export in .git", rel: ".claimslint.yml", make: func(t *testing.T, repo, _, rel string) {
			os.WriteFile(filepath.Join(repo, rel), []byte("tracker:\n  export: .git/hooks/post-checkout\n"), 0o644)
		}, want: `.claimslint.yml: tracker.export: ".git/hooks/post-checkout" is inside .git, git's own directory`},
		{name: "--export through a link", rel: "lnk", make: link("dir"), commands: [][]string{{"--export", "lnk/issues.jsonl", "list"}, {"--export", "lnk/issues.jsonl", "create", "x"}},
			want: "--export: refused: lnk/issues.jsonl goes through the symbolic link lnk"},
		{name: "DOCKET_DB through a link", rel: "lnk", make: link("dir"), env: []string{"DOCKET_DB=lnk/index.db"}, want: "DOCKET_DB: refused: lnk/index.db goes through the symbolic link lnk"},
		{name: "--db outside", rel: "", make: func(*testing.T, string, string, string) {}, commands: [][]string{{"--db", "OUTSIDE/index.db", "list"}, {"--db", "OUTSIDE/index.db", "create", "x"}},
			want: "is outside the repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			repo, outside := t.TempDir(), t.TempDir()
			if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			runIn(t, repo, nil, "", "init", "--prefix", "dk")
			runIn(t, repo, nil, "", "import", filepath.Join(repo, importFile(t, repo)))
			if err := os.MkdirAll(filepath.Join(outside, "dir"), 0o755); err != nil {
				t.Fatal(err)
			}
			export, _ := os.ReadFile(filepath.Join(repo, ".knowledge", "tracker", "issues.jsonl"))
			for _, f := range []string{"victim", "dir/issues.jsonl", "dir/index.db"} {
				if err := os.WriteFile(filepath.Join(outside, f), export, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tc.make(t, repo, outside, tc.rel)
			before := tree(t, outside)
			cmds := tc.commands
			if cmds == nil {
				cmds = commands
			}
			for _, a := range cmds {
				args := make([]string, len(a))
				for k := range a {
					args[k] = strings.NewReplacer("OUTSIDE", outside, "REPO", repo).Replace(a[k])
				}
				code, _, stderr := runIn(t, repo, tc.env, mcpInit, args...)
				if tc.want == "" {
					if code != 0 {
						t.Errorf("docket %s: exit %d, stderr %q; want 0", strings.Join(args, " "), code, stderr)
					}
					continue
				}
				if code != cli.ExitBadInput || !strings.Contains(stderr, tc.want) {
					t.Errorf("docket %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(args, " "), code, stderr, tc.want)
				}
			}
			sameTree(t, "outside the repository", before, tree(t, outside))
		})
	}
}

// importFile writes an import file of one record, dk-aaa, in repo.
func importFile(t *testing.T, repo string) string {
	t.Helper()
	const rec = `{"id":"dk-aaa","title":"one","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","closed_at":null,"close_reason":"","version":1,"schema":1}` + "\n"
	if err := os.WriteFile(filepath.Join(repo, "import.jsonl"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	return "import.jsonl"
}

// TestInitFilesBeneathTheRoot: init writes .docket/.gitignore and
// .gitattributes beneath the root through no link; a link at either is
// refused and its target left alone. A leftover temp file of a killed
// rewrite that is a link is removed as a name, its target untouched.
func TestInitFilesBeneathTheRoot(t *testing.T) {
	t.Parallel()
	for _, rel := range []string{".docket/.gitignore", ".gitattributes"} {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			repo, outside := t.TempDir(), t.TempDir()
			os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
			os.MkdirAll(filepath.Join(repo, ".docket"), 0o755)
			victim := filepath.Join(outside, "victim")
			os.WriteFile(victim, []byte("keep\n"), 0o644)
			if err := os.Symlink(victim, filepath.Join(repo, rel)); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runIn(t, repo, nil, "", "init", "--prefix", "dk")
			if code != cli.ExitBadInput || !strings.Contains(stderr, rel+" is a symbolic link") {
				t.Errorf("init: exit %d, stderr %q; want exit 2 naming %s", code, stderr, rel)
			}
			if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
				t.Errorf("the link's target was written: %q", b)
			}
		})
	}
	t.Run("temp file", func(t *testing.T) {
		t.Parallel()
		repo, outside := t.TempDir(), t.TempDir()
		os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
		runIn(t, repo, nil, "", "init", "--prefix", "dk")
		victim := filepath.Join(outside, "victim")
		os.WriteFile(victim, []byte("keep\n"), 0o644)
		tmp := filepath.Join(repo, ".knowledge", "tracker", ".issues.jsonl.tmp-1-x")
		if err := os.Symlink(victim, tmp); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runIn(t, repo, nil, "", "create", "x"); code != 0 {
			t.Fatalf("create: exit %d, %s", code, stderr)
		}
		if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
			t.Errorf("the leftover temp link is still there: %v", err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
			t.Errorf("the link's target was written: %q", b)
		}
	})
}

// TestOutsideAnyRepository: with no .git above, --db and --export name
// the files anywhere, and the files themselves are still held to the
// rules: a link at the export is refused.
func TestOutsideAnyRepository(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	args := []string{"--db", filepath.Join(outside, "idx.db"), "--export", filepath.Join(outside, "out.jsonl")}
	if code, _, stderr := runIn(t, dir, nil, "", append(args, "init", "--prefix", "zz")...); code != 0 {
		t.Fatalf("init outside a repository: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runIn(t, dir, nil, "", append(args, "create", "x")...); code != 0 {
		t.Fatalf("create: exit %d, %s", code, stderr)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep\n"), 0o644)
	os.Remove(filepath.Join(outside, "out.jsonl"))
	os.Symlink(victim, filepath.Join(outside, "out.jsonl"))
	if code, _, stderr := runIn(t, dir, nil, "", append(args, "list")...); code != cli.ExitBadInput || !strings.Contains(stderr, "out.jsonl is a symbolic link") {
		t.Errorf("list over a linked export: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// TestCommittedGitignoreIsNoIndex: a repository that commits
// .docket/.gitignore (to keep the directory) commits no index state, and
// docket works as ever there; the index file committed beside it is what
// makes the index not this clone's.
func TestCommittedGitignoreIsNoIndex(t *testing.T) {
	t.Parallel()
	needGit(t)
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	runIn(t, repo, nil, "", "init", "--prefix", "dk")
	git(t, repo, "add", "-f", ".docket/.gitignore")
	if code, _, stderr := runIn(t, repo, nil, "", "create", "x"); code != 0 || stderr != "" {
		t.Errorf("create beside a committed .docket/.gitignore: exit %d, %q", code, stderr)
	}
	git(t, repo, "add", "-f", ".docket/index.db")
	if code, _, stderr := runIn(t, repo, nil, "", "create", "y"); code != cli.ExitBadInput || !strings.Contains(stderr, "committed to git (.docket/index.db)") {
		t.Errorf("create beside a committed index: exit %d, %q", code, stderr)
	}
}
