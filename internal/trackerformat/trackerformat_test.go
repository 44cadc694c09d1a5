package trackerformat

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		data, format string
		ok           bool
	}{
		{"", Docket, true},
		{"\ufeff  \n", Docket, true},
		{`[{"number":1}]`, GitHub, true},
		{"\n  [ ]", GitHub, true},
		{`{"id":"dk-1","schema":1}` + "\n", Docket, true},
		{`{"id":"bd-1","title":"x"}`, Beads, true},
		{`{"id": broken`, "", false},
		{"id,title\n", "", false},
	} {
		f, ok := Detect([]byte(tc.data))
		if f != tc.format || ok != tc.ok {
			t.Errorf("Detect(%q) = %q, %v; want %q, %v", tc.data, f, ok, tc.format, tc.ok)
		}
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	var got []string
	err := Lines(strings.NewReader("a\n\n  b  \r\n\nc"), func(n int, line []byte) error {
		got = append(got, string(rune('0'+n))+":"+string(line))
		return nil
	})
	if err != nil || strings.Join(got, ",") != "1:a,3:b,5:c" {
		t.Fatalf("Lines = %v, %v", got, err)
	}
	long := "x\n" + strings.Repeat("y", MaxLine+1) + "\nz\n"
	var seen []int
	err = Lines(strings.NewReader(long), func(n int, line []byte) error { seen = append(seen, n); return nil })
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || len(seen) != 1 {
		t.Fatalf("an overlong line 2: err %v, lines seen %v", err, seen)
	}
	stop := errors.New("stop")
	if err := Lines(strings.NewReader("a\nb\n"), func(int, []byte) error { return stop }); err != stop {
		t.Fatalf("fn's error came back as %v", err)
	}
}

func TestGitHubElements(t *testing.T) {
	t.Parallel()
	data := "[\n  {\"number\": 1},\n\n  {\"number\": 2}, {\"number\": 3}\n]\n"
	var lines []int
	if err := GitHubElements([]byte(data), func(n int, raw json.RawMessage) error { lines = append(lines, n); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 || lines[0] != 2 || lines[1] != 4 || lines[2] != 4 {
		t.Errorf("element lines %v, want [2 4 4]", lines)
	}
	for _, tc := range []struct {
		data string
		line int // 0: ErrNotGitHubArray
	}{
		{`{"number": 1}`, 0},
		{"", 0},
		{"[\n{\"number\": 1},\n{\"number\": }\n]", 3},
		{"[\n{\"number\": 1}\n", 3},
	} {
		err := GitHubElements([]byte(tc.data), func(int, json.RawMessage) error { return nil })
		var le *LineError
		switch {
		case tc.line == 0 && !errors.Is(err, ErrNotGitHubArray):
			t.Errorf("%q: %v, want ErrNotGitHubArray", tc.data, err)
		case tc.line > 0 && (!errors.As(err, &le) || le.Line != tc.line):
			t.Errorf("%q: %v, want a line error at %d", tc.data, err, tc.line)
		}
	}
}

func TestGitHubStatus(t *testing.T) {
	t.Parallel()
	for state, want := range map[string]struct {
		status string
		known  bool
	}{"OPEN": {"open", true}, "open": {"open", true}, "": {"open", true}, "CLOSED": {"closed", true}, "MERGED": {"merged", false}} {
		st, known := GitHubStatus(state)
		if st != want.status || known != want.known {
			t.Errorf("GitHubStatus(%q) = %q, %v; want %q, %v", state, st, known, want.status, want.known)
		}
	}
}

// FuzzLines: every line Lines hands over is trimmed, non-empty, within
// MaxLine, numbered in increasing order, and one of the input's lines.
func FuzzLines(f *testing.F) {
	f.Add([]byte("a\n\n b \r\nc"))
	f.Add([]byte("\n\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		last := 0
		src := bytes.Split(data, []byte("\n"))
		Lines(bytes.NewReader(data), func(n int, line []byte) error {
			if n <= last || n > len(src) || len(line) == 0 || len(line) > MaxLine || !bytes.Equal(line, bytes.TrimSpace(line)) || !bytes.Equal(line, bytes.TrimSpace(src[n-1])) {
				t.Fatalf("line %d (after %d) %q", n, last, line)
			}
			last = n
			return nil
		})
	})
}

// FuzzGitHubElements: every element handed over is valid JSON, on a line
// of the file, in order; a walk never panics.
func FuzzGitHubElements(f *testing.F) {
	f.Add([]byte(`[{"number":1,"title":"x","state":"OPEN"}]`))
	f.Add([]byte("[\n{},\n{]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		last := 0
		lines := 1 + bytes.Count(data, []byte("\n"))
		GitHubElements(data, func(n int, raw json.RawMessage) error {
			if n < last || n > lines || !json.Valid(raw) {
				t.Fatalf("element at line %d (after %d, of %d): %s", n, last, lines, raw)
			}
			last = n
			return nil
		})
	})
}

// TestGitHubElementsLinesMany: the line of each element of a long array,
// counted as the walk goes, is the line it starts on, blank lines and
// several elements a line included.
func TestGitHubElementsLinesMany(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	var want []int
	line := 1
	b.WriteString("[")
	for i := range 2000 {
		if i > 0 {
			b.WriteString(",")
		}
		switch i % 3 {
		case 0:
			b.WriteString("\n")
			line++
		case 1:
			b.WriteString("\n\n  ")
			line += 2
		}
		want = append(want, line)
		b.WriteString(`{"number":1}`)
	}
	b.WriteString("\n]\n")
	var got []int
	if err := GitHubElements([]byte(b.String()), func(n int, _ json.RawMessage) error { got = append(got, n); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("lines %v..., want %v...", got[:min(len(got), 10)], want[:10])
	}
}
