package migrate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// gateScripts returns the gate scripts this property is checked on: the
// scripts/checks/*.sh of the seed-team fixtures, and, when
// CLAIMSLINT_SEED_GATES names a directory, the *.sh in it (the seed
// team's real gates, which are not in this repository).
func gateScripts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, fixture := range []string{"seed_team.txtar", "seed_team_rows.txtar"} {
		ar, err := txtar.ParseFile(filepath.Join("..", "lintcmd", "testdata", "script", fixture))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "scripts/checks/") && strings.HasSuffix(f.Name, ".sh") {
				out[fixture+":"+f.Name] = string(f.Data)
			}
		}
	}
	if dir := os.Getenv("CLAIMSLINT_SEED_GATES"); dir != "" {
		files, err := filepath.Glob(filepath.Join(dir, "*.sh"))
		if err != nil || len(files) == 0 {
			t.Fatalf("CLAIMSLINT_SEED_GATES=%s holds no *.sh", dir)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.Base(f)] = string(b)
		}
	}
	return out
}

// TestAssignmentsAsShEvaluatesThem is the interpreter's property (D63):
// every assignment it evaluates at a script's top level has the value sh
// gives it. The script's assignment section (up to its last evaluated
// assignment) runs under sh, in a fresh git repository in a temporary
// directory, with a time limit and no network, and prints each value
// after the command that assigns it.
func TestAssignmentsAsShEvaluatesThem(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git on PATH: the gates' first lines need a git repository")
	}
	if os.Getenv("CLAIMSLINT_SEED_GATES") == "" {
		t.Log("CLAIMSLINT_SEED_GATES is not set: checked on the fixtures' gates only")
	}
	scripts := gateScripts(t)
	names := make([]string, 0, len(scripts))
	for n := range scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	total := 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			n := compareWithSh(t, sh, git, name, scripts[name])
			t.Logf("%d assignments", n)
			total += n
		})
	}
	t.Logf("%d assignments of %d scripts evaluated as sh evaluates them", total, len(names))
}

// probeSep separates the probes' records: no value holds it.
const probeSep = "\x1e"

// compareWithSh runs the script's assignment section under sh and
// compares each evaluated value; it returns how many it compared.
func compareWithSh(t *testing.T, sh, git, name, src string) int {
	s := read(src)
	type probe struct {
		at    int
		names []string
		want  []string
	}
	byAt := map[int]*probe{}
	for _, a := range s.assigns {
		if !a.runs || a.val.bad != "" || a.after < 0 {
			continue
		}
		p := byAt[a.after]
		if p == nil {
			p = &probe{at: a.after}
			byAt[a.after] = p
		}
		p.names = append(p.names, a.name)
		p.want = append(p.want, a.val.text)
	}
	if len(byAt) == 0 {
		return 0
	}
	var probes []*probe
	for _, p := range byAt {
		probes = append(probes, p)
	}
	sort.Slice(probes, func(i, j int) bool { return probes[i].at < probes[j].at })

	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	rel := filepath.Join("scripts", "checks", filepath.Base(strings.TrimPrefix(name, "seed_team_rows.txtar:")))
	if err := os.MkdirAll(filepath.Join(repo, filepath.Dir(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "probes")
	var b strings.Builder
	prev := 0
	n := 0
	for _, p := range probes {
		b.WriteString(src[prev:p.at])
		if p.at > 0 && src[p.at-1] != '\n' {
			b.WriteByte('\n')
		}
		for _, v := range p.names {
			fmt.Fprintf(&b, "printf '%%s%s' \"$%s\" >>'%s'\n", probeSep, v, out)
			n++
		}
		prev = p.at
	}
	if err := os.WriteFile(filepath.Join(repo, rel), []byte(b.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C"}
	initCmd := exec.CommandContext(ctx, git, "init", "-q")
	initCmd.Dir, initCmd.Env = repo, env
	if msg, err := initCmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, msg)
	}
	cmd := exec.CommandContext(ctx, sh, rel)
	cmd.Dir, cmd.Env = repo, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("sh did not finish the assignment section in 20s")
	}
	data, _ := os.ReadFile(out)
	got := strings.Split(string(data), probeSep)
	got = got[:len(got)-1]
	k := 0
	for _, p := range probes {
		for i, v := range p.names {
			if k >= len(got) {
				t.Fatalf("sh stopped before $%s (line %d) was printed (%v): %s", v, s.line(p.at-1), runErr, stderr.String())
			}
			if got[k] != p.want[i] {
				t.Errorf("$%s after line %d: migrate reads %q, sh %q", v, s.line(p.at-1), p.want[i], got[k])
			}
			k++
		}
	}
	return n
}
