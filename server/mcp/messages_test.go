package mcp_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// goIdentifier matches what leaks when a Go error reaches the wire: a
// qualified name (mcp.InitializeParams, *json.Number), a composite type, a
// decoder's wording, or an unexported type name of the SDK.
var goIdentifier = regexp.MustCompile(`\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b|map\[|\[\][a-z*]|\bstruct ?\{|\binterface ?\{|\bunmarshal|\bGo (value|struct|type)\b|[a-z]+Params(V2)?\b|json: `)

// TestErrorMessagesNameNoGoIdentifiers reads every error message the
// conformance corpora (testdata/conformance, testdata/http and
// testdata/frames.txtar) expect and fails on any that names a Go type.
func TestErrorMessagesNameNoGoIdentifiers(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/conformance/*.txtar")
	more, _ := filepath.Glob("testdata/http/*.txtar")
	files = append(files, more...)
	files = append(files, "testdata/frames.txtar")
	seen := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "in" || f.Name == "request" || strings.HasSuffix(f.Name, ": frame") {
				continue
			}
			for _, l := range strings.Split(string(f.Data), "\n") {
				var r struct {
					Error *struct {
						Message string `json:"message"`
					} `json:"error"`
				}
				if json.Unmarshal([]byte(strings.TrimSpace(l)), &r) != nil || r.Error == nil {
					continue
				}
				seen++
				if m := goIdentifier.FindString(r.Error.Message); m != "" {
					t.Errorf("%s (%s): message names a Go identifier %q: %s", file, f.Name, m, r.Error.Message)
				}
			}
		}
	}
	if seen < 50 {
		t.Fatalf("only %d error messages found in the corpus; the scan is not reading it", seen)
	}
	for _, leak := range []string{`unmarshaling "x" into a *mcp.initializeParamsV2: json: cannot unmarshal number`, `map[string]any`, `[]string`} {
		if !goIdentifier.MatchString(leak) {
			t.Errorf("the scan misses %q", leak)
		}
	}
}
