package mention

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

func pattern() *regexp.Regexp {
	var cfg config.Config
	cfg.Tracker.Prefixes = []string{"dk", "ub"}
	return Pattern(cfg)
}

func ids(ms []Mention) []string {
	var out []string
	for _, m := range ms {
		s := m.ID
		if m.Placeholder {
			s += "?"
		}
		out = append(out, s)
	}
	return out
}

func TestInFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, data string
		want             []string
	}{
		{"prose", "a.md", "see dk-1a2 and ub-lp9.25, not xdk-1\n", []string{"dk-1a2", "ub-lp9.25"}},
		{"placeholder", "a.md", "dk-TBD dk-xxx dk-??\n", []string{"dk-TBD?", "dk-xxx?", "dk-???"}},
		{"fence", "a.md", "dk-1\n```\ndk-2\n```\ndk-3\n", []string{"dk-1", "dk-3"}},
		{"code comments only", "a.go", "package a // dk-1\nvar s = \"dk-2\"\n/* ub-3 */\n", []string{"dk-1", "ub-3"}},
		{"code without comments", "a.go", "package a\nvar s = \"dk-2\"\n", nil},
		{"not text", "a.md", "dk-1\x00", nil},
		{"not utf-8", "a.md", "dk-1 \xff", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ids(InFile(tt.file, []byte(tt.data), pattern())); !slices.Equal(got, tt.want) {
				t.Errorf("InFile(%q) = %q, want %q", tt.data, got, tt.want)
			}
		})
	}
}

func TestGitHubPattern(t *testing.T) {
	t.Parallel()
	var cfg config.Config
	cfg.Tracker.Format = trackerformat.GitHub
	got := ids(InFile("a.md", []byte("fixes #12, not a#3 or &#39;\n"), Pattern(cfg)))
	if want := []string{"#12"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestScanLineAtATime: a file past 1 MiB (past one window of the search)
// finds what one call finds; covered ranges, a halt and a stop are honoured.
func TestScanLineAtATime(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", 100) + " dk-1 ub-2\n"
	data := []byte(strings.Repeat(line, (1<<20)/len(line)+10))
	text, code, ok := Site("big.md", data)
	if !ok {
		t.Fatal("big.md is no mention site")
	}
	lines := register.NewLines("big.md", data)
	n := 0
	all := NewScanner(pattern(), 2).Scan(text, lines, code, func(from, to int) bool { return from < len(line) }, nil, func(m Mention) bool {
		n++
		return true
	})
	if want := len(InFile("big.md", data, pattern())) - 2; !all || n != want {
		t.Errorf("Scan found %d (done %v), want %d: all but the covered first line", n, all, want)
	}
	stopped := NewScanner(pattern(), 2).Scan(text, lines, code, func(int, int) bool { return false }, nil, func(Mention) bool { return false })
	if stopped {
		t.Error("Scan went on after yield asked it to stop")
	}
	// Prose of 2 MiB with no id: halt is asked between its windows.
	prose := []byte(strings.Repeat("no id on this line at all\n", (2<<20)/26))
	halts := 0
	halted := NewScanner(pattern(), 2).Scan(prose, register.NewLines("prose.md", prose), nil, func(int, int) bool { return false }, func(int) bool { halts++; return true }, func(Mention) bool { return true })
	if halted || halts != 1 {
		t.Errorf("Scan returned %v after %d halts, want false after the first window", halted, halts)
	}
}

// FuzzScan holds Scanner.Scan, with nothing covered, to InFile on files
// of up to 1 MiB (one call of the pattern each).
func FuzzScan(f *testing.F) {
	f.Add("a.md", "dk-1 ub-TBD\n```\ndk-2\n```\n")
	f.Add("a.go", "// dk-1\nx := \"dk-2\"\n")
	f.Fuzz(func(t *testing.T, file, data string) {
		re := pattern()
		want := InFile(file, []byte(data), re)
		text, code, ok := Site(file, []byte(data))
		if !ok {
			if want != nil {
				t.Fatalf("InFile found ids in a file Site refuses")
			}
			return
		}
		var got []Mention
		NewScanner(re, 2).Scan(text, register.NewLines(file, []byte(data)), code, func(int, int) bool { return false }, nil, func(m Mention) bool {
			got = append(got, m)
			return true
		})
		if !slices.Equal(got, want) {
			t.Fatalf("Scan %v, InFile %v", got, want)
		}
	})
}
