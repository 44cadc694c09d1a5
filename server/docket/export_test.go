package docket

import (
	"context"
	"testing"
)

// SeenSize exposes the remembered export size to the external tests.
func SeenSize(s *Service) int64 {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	return s.seen.size
}

// ExportKey returns the export_key meta value idx holds.
func ExportKey(t testing.TB, idx Index) string {
	t.Helper()
	var v string
	if err := idx.Read(context.Background(), func(r Reader) error {
		var err error
		v, err = r.Meta("export_key")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return v
}
