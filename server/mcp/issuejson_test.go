package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/google/jsonschema-go/jsonschema"
)

// oldIssueOut is how issue_show's structured content was built before
// IssueOut wrote its own (D82): json.Marshal, then sortKeys.
func oldIssueOut(t testing.TB, o IssueOut) []byte {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sortKeys(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkIssueOut fails unless IssueOut's own encoding is the old one's
// bytes (which keep invalid UTF-8 as \ufffd, as json.Marshal wrote it).
func checkIssueOut(t testing.TB, o IssueOut) {
	t.Helper()
	got, err := o.appendSorted(nil)
	if err != nil {
		t.Fatalf("appendSorted(%+v): %v", o.Issue, err)
	}
	if want := oldIssueOut(t, o); !bytes.Equal(got, want) {
		t.Fatalf("appendSorted differs from json.Marshal and sortKeys at byte %d:\n%s\nwant:\n%s", firstDiff(got, want), got, want)
	}
	if enc, err := encodeOutput(o); err != nil || !bytes.Equal(enc, got) {
		t.Fatalf("encodeOutput = %s, %v; want %s", enc, err, got)
	}
}

func firstDiff(a, b []byte) int {
	for k := range min(len(a), len(b)) {
		if a[k] != b[k] {
			return k
		}
	}
	return min(len(a), len(b))
}

func rawOf(t testing.TB, s string) docket.Raw {
	t.Helper()
	var r docket.Raw
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestIssueOutBytes: on varied records (empty, nil and empty lists,
// unicode, control characters, HTML, invalid UTF-8, U+2028, foreign
// fields, a large description) IssueOut writes the bytes that json.Marshal
// and sortKeys wrote.
func TestIssueOutBytes(t *testing.T) {
	t.Parallel()
	closed := "2026-12-02T10:00:00Z"
	odd := "é ü 日本 \U0001F600 <b>&amp;</b> \"q\" \\ \x00\x01\x1f\x7f \b\f\n\r\t \u2028\u2029 \xff\xfe bad \xe2\x82"
	full := docket.Issue{
		ID: "dk-7qx", Title: "A title <with> & \"quotes\"", Description: strings.Repeat(odd+"\n", 2000),
		Status: "in_progress", Type: "bug", Priority: 4, Assignee: "agent \u2028 é",
		Labels: []string{"issue-32", "", odd}, Decisions: []string{"D82"},
		Deps:      []docket.Dep{{Type: "blocks", ID: "dk-abc"}, {Type: "parent-child", ID: odd, Extra: rawOf(t, `{"z":1,"a":{"y":"<x>","b":[2,1]}}`)}},
		Comments:  []docket.Comment{{Time: "t", Author: "", Text: odd}, {Time: "", Author: "a", Text: "", Extra: rawOf(t, `{"k":"\u00e9\u2028","a":null}`)}},
		CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: odd, ClosedAt: &closed, CloseReason: odd,
		Version: 1 << 40, Schema: -1, Extra: rawOf(t, `{"x_foreign":{"b":1,"a":"&"},"a":[{"d":1,"c":2}]}`),
	}
	empty := ""
	for name, i := range map[string]docket.Issue{
		"zero":  {},
		"empty": {Labels: []string{}, Decisions: []string{}, Deps: []docket.Dep{}, Comments: []docket.Comment{}, ClosedAt: &empty},
		"full":  full,
		"plain": {ID: "dk-1", Title: "t", Status: "open", Type: "task", Priority: 2, Labels: []string{}, Decisions: []string{}, CreatedAt: "c", UpdatedAt: "u", Version: 3, Schema: 1},
	} {
		t.Run(name, func(t *testing.T) { checkIssueOut(t, IssueOut{i}) })
	}
	for c := range 256 { // every byte alone, and every one in a rune's place
		s := string([]byte{byte(c)})
		checkIssueOut(t, IssueOut{docket.Issue{Title: s, Description: "x" + s + "\u00e9" + s}})
	}
}

// FuzzIssueOutBytes: for any strings in any field, IssueOut's own
// encoding is json.Marshal and sortKeys's bytes.
func FuzzIssueOutBytes(f *testing.F) {
	f.Add("dk-7qx", "title <&>", "desc\n\u2028\xff", "agent", "label", "D82", "dep", "comment \x00", int64(7), true)
	f.Add("", "", "", "", "", "", "", "", int64(-1), false)
	f.Fuzz(func(t *testing.T, id, title, desc, assignee, label, decision, dep, text string, version int64, lists bool) {
		i := docket.Issue{ID: id, Title: title, Description: desc, Assignee: assignee, Status: docket.Status(label), Type: docket.Type(decision),
			Priority: int(version % 5), CreatedAt: text, UpdatedAt: title, CloseReason: desc, Version: version, Schema: int(version >> 3)}
		if lists {
			i.Labels, i.Decisions = []string{label, text}, []string{decision}
			i.Deps = []docket.Dep{{Type: docket.DepType(dep), ID: id}}
			i.Comments = []docket.Comment{{Time: text, Author: assignee, Text: desc}}
			i.ClosedAt = &text
		}
		checkIssueOut(t, IssueOut{i})
	})
}

// TestValidArgsIsValidateArgs: the memo of accepted arguments answers as
// validateArgs does, the first time and again, for accepted and refused
// arguments alike, and holds no more than maxValidArgs.
func TestValidArgsIsValidateArgs(t *testing.T) {
	t.Parallel()
	var schema any = &jsonschema.Schema{Type: "object", Required: []string{"id"}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		Properties: map[string]*jsonschema.Schema{"id": {Type: "string", Pattern: idPattern, MaxLength: ptr(docket.MaxIDLen)}}}
	in, err := resolveSchema[IDIn](&schema)
	if err != nil {
		t.Fatal(err)
	}
	var v validArgs
	cases := []string{`{"id":"dk-7qx"}`, `{"id":"dk-7qx"}`, `{"id":"DK 7"}`, `{"id":"DK 7"}`, `{}`, `{"id":"dk-1","x":1}`, `{"id":1}`, `null`, `[]`, ``,
		`{"id":"dk-` + strings.Repeat("a", 300) + `"}`}
	for round := range 2 {
		for _, c := range cases {
			want, werr := validateArgs(json.RawMessage(c), in, false)
			got, gerr := v.validate(json.RawMessage(c), in, false)
			if !bytes.Equal(got, want) || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Errorf("round %d, %s: memo %s, %v; validateArgs %s, %v", round, c, got, gerr, want, werr)
			}
		}
	}
	if n := len(v.seen); n != 1 {
		t.Errorf("memo holds %d arguments, want 1 (only the accepted)", n)
	}
	for k := range 3 * maxValidArgs {
		if _, err := v.validate(json.RawMessage(`{"id":"dk-`+strconv.Itoa(k)+`"}`), in, false); err != nil {
			t.Fatal(err)
		}
		if n := len(v.seen); n > maxValidArgs {
			t.Fatalf("memo holds %d arguments, past %d", n, maxValidArgs)
		}
	}
}
