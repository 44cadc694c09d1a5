package trackerformat

import (
	"slices"
	"testing"

	"github.com/claimslint/claimslint/internal/listgen/listgentest"
)

// TestFormatsAreGenerated: Formats is what listgen makes of the
// //registry:formats values (D103); a stale list names go generate.
func TestFormatsAreGenerated(t *testing.T) {
	t.Parallel()
	listgentest.Fresh(t, "../..", "internal/trackerformat")
}

// A tracker format as a contributor adds one: its file, alone. A header
// line, then one record a line: id, title and status separated by tabs.
const (
	tsvFile = `package trackerformat

import (
	"bytes"
	"os"
	"strings"
)

// TSV is the tab-separated format's name.
const TSV = "tsv"

const tsvHeader = "id\ttitle\tstatus\n"

// TSVFormat is a header line, then id, title and status, tab-separated.
//
//registry:formats 4
var TSVFormat = &Format{
	Name:  TSV,
	Desc:  "tab-separated records",
	Help:  "tab-separated id, title and status",
	Why:   "a first line id<TAB>title<TAB>status",
	Sniff: func(t []byte) bool { return bytes.HasPrefix(t, []byte(tsvHeader)) },
	Walk: func(data []byte, fn func(line int, raw []byte) error) error {
		if !bytes.HasPrefix(data, []byte(tsvHeader)) {
			return ErrNotInFormat
		}
		for n, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if n > 0 {
				if err := fn(n+1, []byte(l)); err != nil {
					return err
				}
			}
		}
		return nil
	},
	Read: func(raw []byte) (Record, error) {
		f := strings.Split(string(raw), "\t")
		if len(f) != 3 {
			return Record{}, os.ErrInvalid
		}
		return Record{ID: f[0], Title: f[1], Status: strings.ToLower(f[2])}, nil
	},
	Write: func(recs []Record) []byte {
		var b strings.Builder
		b.WriteString(tsvHeader)
		for _, r := range recs {
			b.WriteString(r.ID + "\t" + r.Title + "\t" + r.Status + "\n")
		}
		return []byte(b.String())
	},
	Noun: "a tab-separated record",
}
`
	tsvProbe = `package trackerformat

import (
	"slices"
	"testing"
)

func TestScaffoldedTSV(t *testing.T) {
	if want := []string{Docket, Beads, GitHub, TSV}; !slices.Equal(Names(), want) {
		t.Fatalf("Names %v, want %v", Names(), want)
	}
	if got := OrList(); got != "docket, beads, github or tsv" {
		t.Errorf("OrList %q", got)
	}
	data := []byte("id\ttitle\tstatus\ndk-t1\tone\tOpen\n")
	if f, ok := Detect(data); !ok || f != TSV {
		t.Errorf("Detect: %q %v", f, ok)
	}
	if f, ok := Detect([]byte("{\"id\":\"dk-1\"}\n")); !ok || f != Beads {
		t.Errorf("Detect of a beads file: %q %v (the new format is asked last)", f, ok)
	}
	f := Lookup(TSV)
	if f == nil || !Known(TSV) {
		t.Fatal("Lookup does not find tsv")
	}
	var recs []Record
	if err := f.Walk(data, func(_ int, raw []byte) error {
		r, err := f.Read(raw)
		recs = append(recs, r)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].ID != "dk-t1" || recs[0].Title != "one" || recs[0].Status != "open" {
		t.Errorf("read %+v", recs)
	}
	if got := string(f.Write(recs)); got != "id\ttitle\tstatus\ndk-t1\tone\topen\n" {
		t.Errorf("wrote %q", got)
	}
}
`
)

// TestAddingATrackerFormatTouchesOneFile adds a tracker format as one file
// (zz_tsv.go) and regenerates Formats over it: the package built with both
// names it last, detects it after the others, looks it up, reads and
// writes through it. The only other file that changes is the generated
// list; server/cli's TestATrackerFormatIsOneValue shows docket's import,
// export and help and claimslint's reader take a value of Formats as it
// is.
func TestAddingATrackerFormatTouchesOneFile(t *testing.T) {
	t.Parallel()
	changed := listgentest.AddOne(t, "../..", "internal/trackerformat", "zz_tsv.go", tsvFile, tsvProbe, "TestScaffoldedTSV")
	if want := []string{"internal/trackerformat/formats_gen.go"}; !slices.Equal(changed, want) {
		t.Errorf("regenerating changed %v, want %v", changed, want)
	}
}
