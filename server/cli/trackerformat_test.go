package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/config"
	trackerread "github.com/claimslint/claimslint/internal/tracker"
	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/internal/workflow"
)

// tsvFormat is a tracker format written as one value, as a new format's
// file in internal/trackerformat would hold it: a header line, then one
// record a line, id, title and status separated by tabs.
var tsvFormat = &trackerformat.Format{
	Name:  "tsv",
	Desc:  "tab-separated records",
	Help:  "tab-separated id, title and status",
	Why:   "a first line id<TAB>title<TAB>status",
	Sniff: func(t []byte) bool { return bytes.HasPrefix(t, []byte(tsvHeader)) },
	Walk: func(data []byte, fn func(line int, raw []byte) error) error {
		if !bytes.HasPrefix(data, []byte(tsvHeader)) {
			return trackerformat.ErrNotInFormat
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
	Read: func(raw []byte) (trackerformat.Record, error) {
		f := strings.Split(string(raw), "\t")
		if len(f) != 3 {
			return trackerformat.Record{}, os.ErrInvalid
		}
		return trackerformat.Record{ID: f[0], Title: f[1], Status: strings.ToLower(f[2])}, nil
	},
	Write: func(recs []trackerformat.Record) []byte {
		var b strings.Builder
		b.WriteString(tsvHeader)
		for _, r := range recs {
			b.WriteString(r.ID + "\t" + r.Title + "\t" + r.Status + "\n")
		}
		return []byte(b.String())
	},
	Noun: "a tab-separated record",
}

const tsvHeader = "id\ttitle\tstatus\n"

// TestATrackerFormatIsOneValue: a tracker format is one value (D103):
// registered here, and nowhere else, it is in docket's help, detected and
// imported, exported, read by claimslint's tracker reader and accepted as
// tracker.format. Not parallel: it adds to trackerformat.Formats.
func TestATrackerFormatIsOneValue(t *testing.T) {
	saved := trackerformat.Formats
	trackerformat.Formats = append(saved[:len(saved):len(saved)], tsvFormat)
	t.Cleanup(func() { trackerformat.Formats = saved })

	tr := newTracker(t, t.TempDir())
	// help
	if o, _ := tr.want(0, "import", "--help"); !strings.Contains(o, "docket, beads, github or tsv (default: detected from the file)") {
		t.Errorf("import --help does not name the format:\n%s", o)
	}
	if o, _ := tr.want(0, "export", "--help"); !strings.Contains(o, "or tsv (tab-separated id, title and status)") {
		t.Errorf("export --help does not name the format:\n%s", o)
	}
	// import, the format detected
	in := tsvHeader + "dk-t1\tone\topen\ndk-t2\ttwo\tclosed\n"
	if err := os.WriteFile(filepath.Join(tr.dir, "in.tsv"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if o, _ := tr.want(0, "import", filepath.Join(tr.dir, "in.tsv")); !strings.Contains(o, "format: tsv (detected;") {
		t.Errorf("import did not detect the format:\n%s", o)
	}
	if o, _ := tr.want(0, "show", "dk-t2"); !strings.Contains(o, "two") || !strings.Contains(o, "closed") {
		t.Errorf("the imported record:\n%s", o)
	}
	bad := tsvHeader + "dk-t3\tno status\n"
	if err := os.WriteFile(filepath.Join(tr.dir, "bad.tsv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, e := tr.run("import", "--format", "tsv", filepath.Join(tr.dir, "bad.tsv")); !strings.Contains(e, "bad.tsv:2: not a tab-separated record") {
		t.Errorf("a bad record: %s", e)
	}
	// export
	tr.want(0, "export", "--format", "tsv", "-o", filepath.Join(tr.dir, "out.tsv"))
	out, err := os.ReadFile(filepath.Join(tr.dir, "out.tsv"))
	if err != nil || string(out) != in {
		t.Errorf("export --format tsv wrote %q (%v), want %q", out, err, in)
	}
	// claimslint's tracker reader
	e, fs := trackerread.Parse("out.tsv", "tsv", out, nil)
	if len(fs) != 0 || len(e.Issues) != 2 || e.Issues["dk-t2"].Class != workflow.ClassClosed || strings.Join(e.Prefixes, ",") != "dk" {
		t.Errorf("trackerread.Parse: %+v, %v", e, fs)
	}
	// tracker.format
	if _, err := config.Parse([]byte("tracker:\n  format: tsv\n"), config.Default()); err != nil {
		t.Errorf("tracker.format tsv: %v", err)
	}
	if _, err := config.Parse([]byte("tracker:\n  format: csv\n"), config.Default()); err == nil || !strings.Contains(err.Error(), "want docket, beads, github or tsv") {
		t.Errorf("tracker.format csv: %v", err)
	}
}
