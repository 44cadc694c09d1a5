package server_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server"
)

// FuzzReadJSONL: any input either fails with an error or reads records that
// write back canonically, and whose canonical form reads back to itself.
func FuzzReadJSONL(f *testing.F) {
	good, _ := server.Canonical([]server.Issue{issue("dk-abc", "one"), issue("dk-x9", "two <&>")})
	f.Add(good)
	f.Add([]byte("{}\n"))
	f.Add([]byte("\n\n{\"id\":\"dk-a\"}"))
	f.Add(bytes.Replace(good, []byte(`"labels":[]`), []byte(`"labels":["b","a","b"]`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		is, err := server.ReadJSONL("f", bytes.NewReader(data), "")
		if err != nil {
			return
		}
		out, err := server.Canonical(is)
		if err != nil {
			t.Fatalf("records read but cannot be written: %v", err)
		}
		back, err := server.ReadJSONL("g", bytes.NewReader(out), "")
		if err != nil {
			t.Fatalf("canonical output does not read back: %v\n%s", err, out)
		}
		again, _ := server.Canonical(back)
		if !bytes.Equal(out, again) {
			t.Fatalf("canonical form is not stable:\n%s\n%s", out, again)
		}
	})
}

// FuzzDecodeImport: no import format panics on any input, and whatever it
// accepts is valid.
func FuzzDecodeImport(f *testing.F) {
	f.Add([]byte(`{"id":"dk-a1","title":"t","status":"tombstone","issue_type":"epic","dependencies":[{"issue_id":"dk-a1","depends_on_id":"dk-b2","type":"blocks"}]}`), "beads")
	f.Add([]byte(`[{"number":1,"title":"t","state":"OPEN","labels":[{"name":"x"}]}]`), "github")
	f.Add([]byte(`[`), "github")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte, format string) {
		set, err := server.DecodeImport("f", data, format, "dk", now)
		if err != nil {
			return
		}
		for _, i := range set.Issues {
			if err := i.Validate(""); err != nil {
				t.Fatalf("accepted an invalid record: %v", err)
			}
		}
	})
}
