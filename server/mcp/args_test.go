package mcp_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/server/mcp"
	"github.com/google/jsonschema-go/jsonschema"
)

// badArgs derives, from one tool's input schema, arguments it must
// refuse, each with the argument its message must name: an unknown one, a
// value of the wrong type for each argument, and each enum, range, length
// and pattern broken, and a required argument left out.
func badArgs(s *jsonschema.Schema) [][2]string {
	var out [][2]string
	add := func(name string, v any) {
		b, _ := json.Marshal(map[string]any{name: v})
		out = append(out, [2]string{name, string(b)})
	}
	add("bogus", 1)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range s.Properties {
			if !yield(n) {
				return
			}
		}
	}) {
		p := s.Properties[name]
		types := append([]string{p.Type}, p.Types...)
		switch {
		case slices.Contains(types, "string"):
			add(name, 5)
		case slices.Contains(types, "integer"):
			add(name, "x")
			add(name, 1.5)
			add(name, 1e300)
		case slices.Contains(types, "array"):
			add(name, "x")
			add(name, []any{7})
		case slices.Contains(types, "boolean"):
			add(name, "yes")
		}
		if len(p.Enum) > 0 {
			add(name, "not-a-member")
		}
		if p.Maximum != nil {
			add(name, *p.Maximum+1)
		}
		if p.Minimum != nil {
			add(name, *p.Minimum-1)
		}
		if p.MaxLength != nil {
			add(name, strings.Repeat("a", *p.MaxLength+1))
		}
		if p.MinLength != nil && *p.MinLength > 0 {
			add(name, "")
		}
		if p.Pattern != "" {
			add(name, "!!")
		}
		if p.Items != nil && p.Items.Pattern != "" {
			add(name, []any{"!!"})
		}
	}
	for _, r := range s.Required {
		out = append(out, [2]string{r + " (required)", `{}`})
	}
	return out
}

// TestArgumentErrorsNameToolAndArgument: every tool, called with each bad
// argument its own schema implies, is refused with a tool error whose
// message starts `TOOL: argument "NAME": ` (before D81, most were the
// SDK's validator text, which names neither).
func TestArgumentErrorsNameToolAndArgument(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	var in strings.Builder
	in.WriteString(initLines)
	type call struct{ tool, arg, args string }
	var calls []call
	schemas := mcp.InputSchemas()
	for _, tool := range slices.Sorted(func(yield func(string) bool) {
		for n := range schemas {
			if !yield(n) {
				return
			}
		}
	}) {
		for _, c := range badArgs(schemas[tool]) {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", len(calls), tool, c[1])
			calls = append(calls, call{tool, c[0], c[1]})
		}
	}
	if len(calls) < 100 {
		t.Fatalf("only %d bad calls derived from %d schemas: the derivation is not reading them", len(calls), len(schemas))
	}
	got := map[int]string{}
	for id, r := range toolReplies(serve(t, store, []byte(in.String()))) {
		if !r.IsError || r.Text == "" {
			t.Errorf("%+v: not a tool error: %s", calls[id], r.Line)
			continue
		}
		got[id] = r.Text
	}
	for k, c := range calls {
		want := fmt.Sprintf("%s: argument %q: ", c.tool, c.arg)
		ok := strings.HasPrefix
		if name, required := strings.CutSuffix(c.arg, " (required)"); required {
			// Every missing argument is named, in one message.
			want, ok = fmt.Sprintf("argument %q: required", name), strings.Contains
		}
		if msg, answered := got[k]; !answered {
			t.Errorf("%s %s: no answer", c.tool, c.args)
		} else if !ok(msg, want) || !strings.HasPrefix(msg, c.tool+": argument ") {
			t.Errorf("%s %s:\n got %s\nwant it to start %s", c.tool, c.args, msg, want)
		}
	}
}
