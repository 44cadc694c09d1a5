package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// screenCalls checks each tools/call before the SDK sees it (D81): under
// --read-only a tool that writes is refused with a message that says so.
// Arguments are decided by the schema's validator in addTool, which words
// a refusal with checkArgs (`issue_create: argument "priority": 9 is over
// the maximum 4`), where the SDK's validator names neither.
func screenCalls(registry []tool, readOnly bool) sdk.Middleware {
	byName := map[string]tool{}
	for _, tl := range registry {
		byName[tl.def.Name] = tl
	}
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			call, ok := req.(*sdk.CallToolRequest)
			if method != "tools/call" || !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			tl, known := byName[call.Params.Name]
			if !known {
				return next(ctx, method, req) // the SDK's unknown-tool error
			}
			if readOnly && !tl.readOnly() {
				return toolError(fmt.Errorf("%s: refused: this docket mcp runs with --read-only, so it serves only the tools that change nothing; run docket mcp without --read-only to change the tracker or the register", tl.def.Name)), nil
			}
			return next(ctx, method, req)
		}
	}
}

// checkArgs checks raw, a call's arguments, against the input schema s of
// tool: the keywords docket's schemas use (type, enum, minimum, maximum,
// minLength, maxLength, pattern, items, required, additionalProperties).
// Every problem is reported, each naming the argument.
func checkArgs(tool string, s *jsonschema.Schema, raw json.RawMessage) error {
	if s == nil {
		return nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil || args == nil {
		return fmt.Errorf("%s: arguments: give an object of named arguments (%s takes %s)", tool, tool, takes(s))
	}
	var msgs []string
	for _, name := range slices.Sorted(mapKeys(args)) {
		p := s.Properties[name]
		if p == nil {
			msgs = append(msgs, fmt.Sprintf("argument %q: %s has no such argument; it takes %s", name, tool, takes(s)))
			continue
		}
		if m := checkValue(p, args[name]); m != "" {
			msgs = append(msgs, fmt.Sprintf("argument %q: %s", name, m))
		}
	}
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			msgs = append(msgs, fmt.Sprintf("argument %q: required", name))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", tool, strings.Join(msgs, "; "))
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// takes lists the arguments of s, required ones first.
func takes(s *jsonschema.Schema) string {
	if len(s.Properties) == 0 {
		return "none"
	}
	var names []string
	for _, n := range s.Required {
		names = append(names, n+" (required)")
	}
	for _, n := range slices.Sorted(schemaKeys(s.Properties)) {
		if !slices.Contains(s.Required, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

func schemaKeys(m map[string]*jsonschema.Schema) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// patterns caches the compiled patterns of the schemas (docket's own, so a
// pattern that does not compile is a bug here: it matches nothing).
var patterns sync.Map // pattern -> *regexp.Regexp

func pattern(p string) *regexp.Regexp {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = regexp.MustCompile(`\A\z.`) // never matches
	}
	patterns.Store(p, re)
	return re
}

// checkValue says what is wrong with v as a value of schema p, or "".
func checkValue(p *jsonschema.Schema, v any) string {
	types := p.Types
	if p.Type != "" {
		types = []string{p.Type}
	}
	got := jsonType(v)
	if len(types) > 0 && !slices.Contains(types, got) && !(got == "integer" && slices.Contains(types, "number")) {
		want := slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
		return strings.TrimSpace(article(got)+" "+shown(v)) + ", want " + orList(want)
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if p.MinLength != nil && n < *p.MinLength {
			if n == 0 {
				return "empty: give at least one character"
			}
			return fmt.Sprintf("%d characters, under the minimum %d", n, *p.MinLength)
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			return fmt.Sprintf("%d characters, over the maximum %d", n, *p.MaxLength)
		}
		if p.Pattern != "" && !pattern(p.Pattern).MatchString(x) {
			return fmt.Sprintf("%s does not match the pattern %s", shown(x), p.Pattern)
		}
	case json.Number:
		f, err := x.Float64()
		if err != nil || math.IsInf(f, 0) {
			return fmt.Sprintf("%s is out of range", x)
		}
		if p.Minimum != nil && f < *p.Minimum {
			return fmt.Sprintf("%s is under the minimum %s", x, num(*p.Minimum))
		}
		if p.Maximum != nil && f > *p.Maximum {
			return fmt.Sprintf("%s is over the maximum %s", x, num(*p.Maximum))
		}
	case []any:
		if p.Items != nil {
			for k, it := range x {
				if m := checkValue(p.Items, it); m != "" {
					return fmt.Sprintf("item %d: %s", k+1, m)
				}
			}
		}
	}
	if len(p.Enum) > 0 && v != nil && !slices.ContainsFunc(p.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		var es []string
		for _, e := range p.Enum {
			es = append(es, fmt.Sprint(e))
		}
		return fmt.Sprintf("%s is not one of %s", shown(v), strings.Join(es, ", "))
	}
	return ""
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		// Only a number that a Go integer holds is an integer here: the
		// handler decodes it into one (1e3 and 2^64 are refused as
		// numbers, not left to the decoder's wording).
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	default:
		return "object"
	}
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func orList(ts []string) string {
	for k, t := range ts {
		ts[k] = article(t)
	}
	if len(ts) == 0 {
		return "a value"
	}
	return strings.Join(ts, " or ")
}

// shown is v as the client wrote it, quoted and cut short.
func shown(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		if utf8.RuneCountInString(x) > 40 {
			x = string([]rune(x)[:40]) + "..."
		}
		return fmt.Sprintf("%q", x)
	case json.Number:
		return x.String()
	case bool:
		return fmt.Sprint(x)
	}
	return ""
}

func num(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprint(f)
}
