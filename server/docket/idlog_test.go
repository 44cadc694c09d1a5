package docket

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppendID: each drawn id is one line of the log, appended; no path
// means no log.
func TestAppendID(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "index.db.ids")
	for _, id := range []string{"dk-a1", "dk-b2"} {
		if err := appendID(Files{}, path, id); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "dk-a1\ndk-b2\n" {
		t.Fatalf("log = %q, %v", b, err)
	}
	if err := appendID(Files{}, "", "dk-c3"); err != nil {
		t.Fatal(err)
	}
	if err := appendID(Files{}, filepath.Join(path, "not-a-dir", "x"), "dk-c3"); err == nil || !strings.Contains(err.Error(), "record drawn id") {
		t.Errorf("an unwritable log: %v, want an error naming it", err)
	}
}

// BenchmarkAppendID is what the id log adds to a create (dk-vy8):
//
//	go test ./server/docket -run '^$' -bench AppendID -count 5
func BenchmarkAppendID(b *testing.B) {
	path := filepath.Join(b.TempDir(), "index.db.ids")
	for b.Loop() {
		if err := appendID(Files{}, path, "dk-a1b"); err != nil {
			b.Fatal(err)
		}
	}
}
