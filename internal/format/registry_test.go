package format

import (
	"slices"
	"testing"

	"github.com/claimslint/claimslint/internal/listgen/listgentest"
)

// TestPrintersAreGenerated: Printers is what listgen makes of the
// //registry:printers values (D103); a stale list names go generate.
func TestPrintersAreGenerated(t *testing.T) {
	t.Parallel()
	listgentest.Fresh(t, "../..", "internal/format")
}

// An output format as a contributor adds one: its file, alone.
const (
	linesFile = `package format

import (
	"fmt"
	"io"

	"github.com/claimslint/claimslint/internal/diag"
)

// linesPrinter writes each finding's place, one a line.
//
//registry:printers 8
var linesPrinter = &Printer{Name: "lines", New: fixed(func(w io.Writer, fs []diag.Finding) error {
	for _, f := range fs {
		if _, err := fmt.Fprintln(w, location(f)); err != nil {
			return err
		}
	}
	return nil
})}
`
	linesProbe = `package format

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestScaffoldedLines(t *testing.T) {
	want := []string{"text", "json", "sarif", "github", "code-climate", "junit-xml", "checkstyle", "lines"}
	if !slices.Equal(Names, want) {
		t.Fatalf("Names (what --format takes and its help names) %v, want %v", Names, want)
	}
	var b bytes.Buffer
	if err := Write(&b, "lines", sample, rules, "v1"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "docs/decisions/D1-a.md:9:1\ndocs/PRD.md:3:21\n") {
		t.Errorf("lines wrote %q", b.String())
	}
	if _, err := New("yaml", nil, ""); err == nil || !strings.HasSuffix(err.Error(), "checkstyle, lines") {
		t.Errorf("an unknown format: %v", err)
	}
}
`
)

// TestAddingAPrinterTouchesOneFile adds an output format as one file
// (zz_lines.go) and regenerates Printers over it: the package built with
// both lists the format last in Names (what --format's help and its check
// read), writes through it, and names it in the unknown-format message.
// The only other file that changes is the generated list.
func TestAddingAPrinterTouchesOneFile(t *testing.T) {
	t.Parallel()
	changed := listgentest.AddOne(t, "../..", "internal/format", "zz_lines.go", linesFile, linesProbe, "TestScaffoldedLines")
	if want := []string{"internal/format/printers_gen.go"}; !slices.Equal(changed, want) {
		t.Errorf("regenerating changed %v, want %v", changed, want)
	}
}
