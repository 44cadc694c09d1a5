package docket_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
)

// FuzzReadJSONL: any input either fails with an error or reads records that
// write back canonically, and whose canonical form reads back to itself.
func FuzzReadJSONL(f *testing.F) {
	good, _ := docket.Canonical([]docket.Issue{issue("dk-abc", "one"), issue("dk-x9", "two <&>")})
	f.Add(good)
	f.Add([]byte("{}\n"))
	f.Add([]byte("\n\n{\"id\":\"dk-a\"}"))
	f.Add(bytes.Replace(good, []byte(`"labels":[]`), []byte(`"labels":["b","a","b"]`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		is, err := docket.ReadJSONL("f", bytes.NewReader(data), "")
		if err != nil {
			return
		}
		out, err := docket.Canonical(is)
		if err != nil {
			t.Fatalf("records read but cannot be written: %v", err)
		}
		back, err := docket.ReadJSONL("g", bytes.NewReader(out), "")
		if err != nil {
			t.Fatalf("canonical output does not read back: %v\n%s", err, out)
		}
		again, _ := docket.Canonical(back)
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
		set, err := docket.DecodeImport("f", data, format, "dk", now)
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

// FuzzExportBeads: whatever a beads import accepts, ExportBeads writes a
// file that imports again, and that file is a fixed point: importing it
// and writing it back gives the same bytes (D59).
func FuzzExportBeads(f *testing.F) {
	f.Add([]byte(`{"id":"bd-a1","title":"t \u003cx\u003e","status":"hooked","priority":1,"issue_type":"epic","created_at":"2026-01-02T03:04:05.123-08:00","updated_at":"2026-01-02T03:04:05Z","labels":["b","a"],"dependencies":[{"issue_id":"bd-a1","depends_on_id":"bd-b2","type":"blocks","created_at":"2026-01-02T03:04:05Z"},{"issue_id":"bd-a1","depends_on_id":"bd-b2","type":"parent-child"}],"comments":[{"id":1,"issue_id":"bd-a1","author":"x","text":"y","created_at":"2026-01-02T03:04:05Z"}],"zzz":{"k":[1,2]}}` + "\n" + `{"_type":"issue","id":"bd-b2","title":"two\nlines","status":"closed","priority":0,"issue_type":"task","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","dependency_count":0}`))
	f.Add([]byte(`{"_type":"memory","key":"k","value":"v"}`))
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := docket.DecodeImport("f", data, docket.FormatBeads, "bd", now)
		if err != nil {
			return
		}
		first := docket.ExportBeads(set.Issues)
		again, err := docket.DecodeImport("first", first, docket.FormatBeads, "bd", now)
		if err != nil {
			t.Fatalf("the beads export does not import: %v\n%s", err, first)
		}
		if second := docket.ExportBeads(again.Issues); !bytes.Equal(first, second) {
			t.Fatalf("not a fixed point:\n%s\n---\n%s", first, second)
		}
	})
}
