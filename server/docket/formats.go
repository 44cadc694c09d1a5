package docket

import (
	"errors"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/trackerformat"
)

// codec is what docket reads and writes of a format beyond its
// trackerformat.Record: every field of docket's record, and of beads'
// (D49, D59). decode fills d from data; encode writes issues, nil for a
// format docket does not write this way.
type codec struct {
	decode func(d *decoder, data []byte, prefix string) error
	encode func(issues []Issue) ([]byte, error)
}

// codecs are docket's own readers and writers of the formats that carry
// more than a Record: docket's export, beads' and gh's. A format without
// one (any other value of trackerformat.Formats) is imported and exported
// through its Record (importRecords, ExportAs), so adding a format is its
// file in internal/trackerformat and nothing here (D103).
var codecs = map[*trackerformat.Format]codec{
	trackerformat.DocketFormat: {decode: func(d *decoder, data []byte, _ string) error { d.docket(data); return nil }, encode: Canonical},
	trackerformat.BeadsFormat: {decode: func(d *decoder, data []byte, _ string) error { d.beads(data); return nil },
		encode: func(issues []Issue) ([]byte, error) { return ExportBeads(issues), nil }},
	trackerformat.GitHubFormat: {decode: func(d *decoder, data []byte, prefix string) error {
		if prefix == "" {
			return Invalidf("a GitHub import needs the tracker's prefix; run docket init --prefix first")
		}
		d.github(data, prefix)
		return nil
	}},
}

// decode reads data in format f: with docket's codec for it, else through
// f's Records.
func (d *decoder) decode(f *trackerformat.Format, data []byte, prefix string) error {
	if c, ok := codecs[f]; ok {
		return c.decode(d, data, prefix)
	}
	d.records(f, data)
	return nil
}

// records imports a format docket has no codec for through its Records:
// each becomes an issue with the record's id, title, status and
// decisions, docket's defaults otherwise, stamped with the import time.
func (d *decoder) records(f *trackerformat.Format, data []byte) {
	stamp := FormatTime(d.now)
	err := f.Walk(data, func(n int, raw []byte) error {
		r, err := f.Read(raw)
		if err != nil {
			d.bad(n, "", "not %s: %v", f.Noun, err)
			return nil
		}
		i := Issue{ID: r.ID, Title: r.Title, Status: Status(r.Status), Type: TypeTask, Priority: DefaultPriority,
			Decisions: r.Decisions, CreatedAt: stamp, UpdatedAt: stamp, Version: 1, Schema: Schema}
		if i.Status == StatusClosed {
			i.ClosedAt = &stamp
		}
		d.foreign("status", string(i.Status), slices.Contains(Statuses, i.Status))
		d.add(n, i)
		return nil
	})
	var le *trackerformat.LineError
	switch {
	case errors.Is(err, trackerformat.ErrNotInFormat):
		d.bad(1, "", "not %s", f.Desc)
	case errors.As(err, &le):
		d.bad(le.Line, "", "%v", le.Cause())
	case err != nil:
		d.bad(1, "", "%v", err)
	}
}

// Exports reports whether docket writes format f: one it has a writing
// codec for (its own export, beads'), or one whose value writes Records.
func Exports(f *trackerformat.Format) bool {
	return f != nil && (codecs[f].encode != nil || f.Write != nil)
}

// ExportFormats lists the formats docket writes, in the order of
// trackerformat.Formats.
func ExportFormats() []*trackerformat.Format {
	var out []*trackerformat.Format
	for _, f := range trackerformat.Formats {
		if Exports(f) {
			out = append(out, f)
		}
	}
	return out
}

// ExportAs writes issues in format f: with docket's codec for it (its
// own is Canonical), else through f's Write, records in id order. A
// format docket does not write (Exports is false) is ErrInvalid.
func ExportAs(f *trackerformat.Format, issues []Issue) ([]byte, error) {
	if !Exports(f) {
		return nil, Invalidf("docket does not write that format: use %s", exportNames())
	}
	if c := codecs[f]; c.encode != nil {
		return c.encode(issues)
	}
	sorted := normalizedByID(issues)
	recs := make([]trackerformat.Record, len(sorted))
	for k, i := range sorted {
		recs[k] = trackerformat.Record{ID: i.ID, Title: i.Title, Status: string(i.Status), Decisions: i.Decisions}
	}
	return f.Write(recs), nil
}

// exportNames is "docket or beads": the formats docket writes.
func exportNames() string {
	var names []string
	for _, f := range ExportFormats() {
		names = append(names, f.Name)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
