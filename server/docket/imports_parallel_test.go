package docket

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestParallelDecodeIsSequential: a file decoded on every core gives
// exactly what the one-line-at-a-time decode gives (records in order,
// every problem and warning with its line, the caps, the counts), on real
// fixture lines made large enough to be split, with unique ids, with
// duplicates across the whole file, and with broken lines among them.
func TestParallelDecodeIsSequential(t *testing.T) {
	read := func(name string) [][]byte {
		b, err := os.ReadFile(filepath.Join("testdata", "import", name))
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	}
	export, err := os.ReadFile(filepath.Join("..", "..", ".knowledge", "tracker", "issues.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	grow := func(lines [][]byte, n int, unique bool, junk bool) []byte {
		var b bytes.Buffer
		for k := 0; b.Len() == 0 || k < n; k++ {
			l := lines[k%len(lines)]
			if unique {
				// "id":"bd-x" becomes "id":"bd-x.<k>": another valid id.
				if i := bytes.Index(l, []byte(`"id":`)); i >= 0 {
					open := i + 5 + bytes.IndexByte(l[i+5:], '"')
					end := open + 1 + bytes.IndexByte(l[open+1:], '"')
					l = append(append(append([]byte{}, l[:end]...), fmt.Sprintf(".%d", k)...), l[end:]...)
				}
			}
			b.Write(l)
			b.WriteByte('\n')
			if junk && k%97 == 5 {
				b.WriteString("{not json\n\n")
			}
			if junk && k%131 == 7 {
				b.WriteString(`{"_type":"memory","key":"k","value":"v"}` + "\n")
			}
		}
		return b.Bytes()
	}
	beads := append(append(append(read("beads-go.jsonl"), read("beads-current.jsonl")...), read("beads-dolt.jsonl")...), read("unblock.jsonl")...)
	docket := bytes.Split(bytes.TrimSpace(export), []byte("\n"))
	cases := []struct {
		name, format string
		data         []byte
	}{
		{"beads unique", FormatBeads, grow(beads, 3000, true, false)},
		{"beads duplicates", FormatBeads, grow(beads, 3000, false, false)},
		{"beads junk", FormatBeads, grow(beads, 3000, true, true)},
		{"docket duplicates", FormatDocket, grow(docket, 2500, false, false)},
		{"docket junk", FormatDocket, grow(docket, 2500, false, true)},
		{"detected", "", grow(beads, 2000, true, false)},
	}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			decode := func(threshold int) (*ImportSet, string) {
				old := parallelLines
				parallelLines = threshold
				defer func() { parallelLines = old }()
				set, err := DecodeImport("f.jsonl", c.data, c.format, "bd", now)
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				return set, msg
			}
			seqSet, seqErr := decode(1 << 62)
			parSet, parErr := decode(1)
			if d := cmp.Diff(seqSet, parSet); d != "" {
				t.Errorf("import set differs (-sequential +parallel):\n%s", d)
			}
			if seqErr != parErr {
				t.Errorf("errors differ:\nsequential: %s\nparallel:   %s", seqErr, parErr)
			}
			if seqSet == nil && seqErr == "" {
				t.Fatal("nothing decoded")
			}
			t.Logf("%d bytes: %d records, error %.80q", len(c.data), func() int {
				if seqSet == nil {
					return 0
				}
				return len(seqSet.Issues)
			}(), seqErr)
		})
	}
}
