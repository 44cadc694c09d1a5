package register

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestStatusPhrase reads statuses and titles as the world writes them
// (D97).
func TestStatusPhrase(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ raw, want string }{
		{"Stable in 1.1", "stable in 1.1"},
		{"Implemented (Swift 5.9)", "implemented"},
		{"[Declined](https://github.com/Kotlin/KEEP/discussions/462)", "declined"},
		{"Superseded by [ADR-0005](0005-x.md)", "superseded"},
		{"Accepted. More text.", "accepted"},
		{"2017-11-25 完成", "完成"},
	} {
		if got := StatusWords(c.raw); got != c.want {
			t.Errorf("StatusWords(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
	for _, c := range []struct{ raw, want string }{
		{"Vorgeschlagen | **Akzeptiert** | Abgelehnt | Überholt | Ersetzt", "Akzeptiert"},
		{"Proposed | **Date:** 2026-12-01", "Proposed | **Date:** 2026-12-01"},
		{"**Accepted**", "**Accepted**"},
	} {
		if got := chosenOfChoices(c.raw); got != c.want {
			t.Errorf("chosenOfChoices(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
	for _, c := range []struct{ raw, want string }{
		{"128-bit Integer Types", "128-bit Integer Types"},
		{"SE-0001: Allow keywords", "Allow keywords"},
		{"ADR-0003: Microservices-Architektur", "Microservices-Architektur"},
		{"0003 - Contrato de importación", "Contrato de importación"},
		{"2. 添加目录生成", "添加目录生成"},
		{"ADR-001：架构", "架构"},
		{"0021 — Title", "Title"},
		{"HTTP2 support", "HTTP2 support"},
	} {
		if got := untitled(c.raw); got != c.want {
			t.Errorf("untitled(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
	for _, c := range []struct {
		key     string
		status  bool
		heading bool
	}{
		{"Status", true, true}, {"상태 (Status)", true, true}, {"**状态**", true, true},
		{"stage", true, false}, {"State", true, false}, {"Context", false, false},
	} {
		if IsStatusKey(c.key) != c.status || IsStatusHeading(c.key) != c.heading {
			t.Errorf("IsStatusKey/IsStatusHeading(%q) = %v/%v, want %v/%v", c.key, IsStatusKey(c.key), IsStatusHeading(c.key), c.status, c.heading)
		}
	}
}

// FuzzStatusPhrase: the readers of D97 never panic, keep valid UTF-8 and
// return a phrase no longer than its input.
func FuzzStatusPhrase(f *testing.F) {
	for _, s := range []string{"Stable in 1.1", "[Declined](u)", "a | **b** | c", "ADR-001：x", "1.", "。", "**状态**：✅ Accepted（已采纳）"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := StatusWords(s)
		u := untitled(s)
		c := chosenOfChoices(s)
		_ = IsStatusKey(s)
		_, _ = StatusValueAt(s)
		for _, out := range []string{w, u, c} {
			if utf8.ValidString(s) && !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 from %q: %q", s, out)
			}
		}
		if len(u) > len(s) || len(c) > len(s) {
			t.Fatalf("longer than the input: %q -> %q, %q", s, u, c)
		}
		if strings.Contains(w, "\n") {
			t.Fatalf("StatusWords(%q) = %q has a line break", s, w)
		}
	})
}
