package docket_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/server/docket"
)

// TestExportAs: docket writes the formats it has a writing codec for (its
// canonical export, beads') and refuses the rest as ErrInvalid; the list
// help and messages name is derived from the same codecs (D103).
func TestExportAs(t *testing.T) {
	t.Parallel()
	issues := []docket.Issue{
		{ID: "dk-2", Title: "two", Status: docket.StatusOpen, Type: docket.TypeTask, Priority: 2, CreatedAt: "2026-12-02T00:00:00Z", UpdatedAt: "2026-12-02T00:00:00Z", Version: 1, Schema: docket.Schema},
		{ID: "dk-1", Title: "one", Status: docket.StatusOpen, Type: docket.TypeTask, Priority: 2, CreatedAt: "2026-12-02T00:00:00Z", UpdatedAt: "2026-12-02T00:00:00Z", Version: 1, Schema: docket.Schema},
	}
	canonical, err := docket.Canonical(issues)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := docket.ExportAs(trackerformat.DocketFormat, issues); err != nil || !bytes.Equal(got, canonical) {
		t.Errorf("docket: %q, %v; want the canonical export", got, err)
	}
	if got, err := docket.ExportAs(trackerformat.BeadsFormat, issues); err != nil || !bytes.Equal(got, docket.ExportBeads(issues)) {
		t.Errorf("beads: %q, %v", got, err)
	}
	if _, err := docket.ExportAs(trackerformat.GitHubFormat, issues); !errors.Is(err, docket.ErrInvalid) {
		t.Errorf("github: %v, want ErrInvalid", err)
	}
	var names []string
	for _, f := range docket.ExportFormats() {
		names = append(names, f.Name)
	}
	if len(names) != 2 || names[0] != "docket" || names[1] != "beads" {
		t.Errorf("ExportFormats %v", names)
	}
}
