package config

import (
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/register"
)

// TestWorldStatuses keeps the world vocabulary one fact (D97): every word
// maps to one of the five statuses, a word in two rows means the same
// status in both, and each of the nine languages names all five.
func TestWorldStatuses(t *testing.T) {
	seen := map[string]string{}
	langs := map[string]map[string]bool{}
	for _, row := range WorldStatuses {
		if !register.ValidStatus(row.Status) {
			t.Errorf("%s: status %q is not one of the five", row.Lang, row.Status)
		}
		if langs[row.Lang] == nil {
			langs[row.Lang] = map[string]bool{}
		}
		langs[row.Lang][row.Status] = true
		for _, w := range strings.Split(row.Words, ",") {
			w = strings.TrimSpace(w)
			if w == "" || w != strings.ToLower(w) || register.ValidStatus(w) {
				t.Errorf("%s: word %q must be lower case and not one of the five", row.Lang, w)
			}
			if st, ok := seen[w]; ok && st != row.Status {
				t.Errorf("%q is %s in one row and %s in another", w, st, row.Status)
			}
			seen[w] = row.Status
		}
	}
	for _, l := range []string{"en", "de", "es", "pt", "fr", "it", "zh", "ja", "ko"} {
		if len(langs[l]) != len(register.Statuses) {
			t.Errorf("language %s names %d of the five statuses", l, len(langs[l]))
		}
	}
	def := DefaultStatuses()
	for w, st := range seen {
		if def[w] != st {
			t.Errorf("DefaultStatuses()[%q] = %q, want %q", w, def[w], st)
		}
	}
}

// TestWorldStatusesRead reads the words as records write them.
func TestWorldStatusesRead(t *testing.T) {
	vocab := DefaultStatuses()
	for _, c := range []struct{ raw, want string }{
		{"Akzeptiert", "accepted"},
		{"aceptado", "accepted"},
		{"✅ Accepted（已采纳）", "accepted"},
		{"Final", "accepted"},
		{"Stable in 1.1", "accepted"},
		{"**Implemented (Swift 5.9)**", "accepted"},
		{"Active Review (March 1...March 14, 2024)", "proposed"},
		{"[Declined](https://github.com/Kotlin/KEEP/discussions/462)", "rejected"},
		{"reemplazado por `0005`", "superseded"},
		{"ready-for-release", "accepted"},
		{"Returned for revision", "rejected"},
		{"discontinued", "deprecated"},
		{"승인됨", "accepted"},
		{"ステータス", ""},
		{"Previewing", ""},
	} {
		got, ok := register.MapStatus(c.raw, vocab)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("MapStatus(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}
