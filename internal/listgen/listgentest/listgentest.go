// Package listgentest holds what the registries' tests share: the test
// that a package's generated lists are up to date, and the test that adds
// a value to a registry as one hand-written file (D103).
package listgentest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/listgen"
)

// Fresh fails when a generated list of the package dir (a slash path from
// root) differs from what its //registry values make, naming the command
// that writes it again.
func Fresh(t *testing.T, root, dir string) {
	t.Helper()
	if err := listgen.Stale(root, dir); err != nil {
		t.Fatal(err)
	}
}

// AddOne adds a value to a registry as a contributor does: the file name
// holding src, alone, in the package dir of the module at root (the
// current directory is that package). It regenerates the package's lists
// with that file, and runs the test testName of probe (a file of tests of
// the package) over a build of the package with the file and the lists
// overlaid: the tree is not written. It fails unless the test passes, and
// returns the files the regeneration changed, besides the one added.
func AddOne(t *testing.T, root, dir, name, src, probe, testName string) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the package's tests again with an overlay")
	}
	gen, err := listgen.Render(root, dir, map[string][]byte{name: []byte(src)})
	if err != nil {
		t.Fatalf("listgen with %s added: %v", name, err)
	}
	tmp := t.TempDir()
	replace := map[string]string{}
	put := func(target string, data []byte) {
		abs, err := filepath.Abs(target)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, strings.ReplaceAll(filepath.ToSlash(target), "/", "_"))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[abs] = p
	}
	put(name, []byte(src))
	put("zz_probe_test.go", []byte(probe))
	var changed []string
	for p, data := range gen {
		target := filepath.Join(root, filepath.FromSlash(p))
		if old, err := os.ReadFile(target); err == nil && string(old) == string(data) {
			continue
		}
		changed = append(changed, p)
		put(target, data)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	if err := os.WriteFile(filepath.Join(tmp, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-overlay", filepath.Join(tmp, "overlay.json"), "-run", "^"+testName+"$", "-count", "1", "-v", ".")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+testName) {
		t.Fatalf("the package with %s added alone: %v\n%s", name, err, out)
	}
	return changed
}
