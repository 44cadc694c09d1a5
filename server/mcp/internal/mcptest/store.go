package mcptest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
)

// SeedIssue is the one issue, dk-aaa, a store NewStore makes holds.
const SeedIssue = `{"id":"dk-aaa","title":"seeded","description":"","status":"open","type":"task","priority":2,"labels":[],"decisions":[],"deps":[],"comments":[],"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","closed_at":null,"close_reason":"","version":1,"schema":1}
`

// ModernMeta is the _meta member a 2026-07-28 (stateless) request carries.
const ModernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// NewStore opens a SQLite-backed store in a fresh repository holding
// SeedIssue, its clock fixed, closed when the test ends; it returns the
// store and its export's path.
func NewStore(t testing.TB) (*docket.Service, string) {
	t.Helper()
	dir := t.TempDir()
	export := filepath.Join(dir, ".knowledge", "tracker", "issues.jsonl")
	if err := os.MkdirAll(filepath.Dir(export), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(export, []byte(SeedIssue), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := docket.Open(context.Background(), sqlite.Backend{DB: filepath.Join(dir, ".docket", "index.db")}, docket.Options{Export: export,
		Now: func() time.Time { return time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, export
}

// WaitUntil polls cond every millisecond for up to 20 s: for a state
// another goroutine reaches outside a synctest bubble (a connection the
// server closes on its own deadline).
func WaitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
