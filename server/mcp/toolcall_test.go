package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type sampleIn struct {
	ID    string   `json:"id" jsonschema:"an id"`
	Limit int      `json:"limit,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

type sampleOut struct {
	Zeta  string            `json:"zeta"`
	Alpha []sampleItem      `json:"alpha"`
	Mid   map[string]int    `json:"mid"`
	Ptr   *sampleItem       `json:"ptr"`
	Extra map[string]string `json:"extra,omitempty"`
	Limit int               `json:"limit"`
}

type sampleItem struct {
	Y string `json:"y"`
	X int    `json:"x"`
}

// sampleTool answers by its input: "fail" is a tool error, "text" a result
// with a summary of its own, anything else an output whose keys are out
// of order at every level.
func sampleTool(_ context.Context, _ *sdk.CallToolRequest, in sampleIn) (*sdk.CallToolResult, sampleOut, error) {
	switch in.ID {
	case "fail":
		return nil, sampleOut{}, errors.New("no such thing: fail")
	case "text":
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a summary"}}}, sampleOut{Zeta: "z", Alpha: []sampleItem{}, Mid: map[string]int{}}, nil
	}
	return nil, sampleOut{Zeta: "z <&>", Alpha: []sampleItem{{"b", 2}, {"a", 1}}, Mid: map[string]int{"q": 1, "p": 2},
		Extra: map[string]string{"n": in.ID}, Limit: in.Limit}, nil
}

// callBoth serves def through go-sdk's typed AddTool and through addTool,
// and returns each server's tools/list result and its replies to each
// call's arguments, as the bytes the server wrote.
func callBoth(t *testing.T, def sdk.Tool, args []string) (sdkOut, ours []string) {
	t.Helper()
	sdkOut = callWith(t, func(s *sdk.Server, d *sdk.Tool) { sdk.AddTool(s, d, sampleTool) }, def, args)
	ours = callWith(t, func(s *sdk.Server, d *sdk.Tool) { addTool(s, d, sampleTool) }, def, args)
	// tools/list: the same schemas in their portable spelling, compared as
	// JSON values (a schema read back loses its property order). A schema
	// given as a map is listed as given.
	keys := []string{"inputSchema", "outputSchema"}
	if _, isMap := def.InputSchema.(map[string]any); isMap {
		keys = keys[1:]
	}
	sdkOut[0], ours[0] = canonical(t, portableList(t, sdkOut[0], keys)), canonical(t, ours[0])
	return sdkOut, ours
}

// canonical re-encodes a JSON document with its object keys sorted.
func canonical(t *testing.T, doc string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// portableList is go-sdk's tools/list reply with each schema spelled as
// addTool lists it (portable): the one difference addTool makes on
// purpose (D81).
func portableList(t *testing.T, line string, keys []string) string {
	t.Helper()
	var msg struct {
		Tools []map[string]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal([]byte(line), &msg); err != nil || len(msg.Tools) == 0 {
		t.Fatalf("tools/list result %s: %v", line, err)
	}
	for _, tool := range msg.Tools {
		for _, key := range keys {
			raw, ok := tool[key]
			if !ok {
				continue
			}
			var sch *jsonschema.Schema
			if err := json.Unmarshal(raw, &sch); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(portable(sch))
			if err != nil {
				t.Fatal(err)
			}
			line = strings.Replace(line, string(raw), string(b), 1)
		}
	}
	return line
}

// callWith serves def as register adds it and returns its tools/list
// result and its replies to each call's arguments.
func callWith(t *testing.T, register func(s *sdk.Server, d *sdk.Tool), def sdk.Tool, args []string) []string {
	t.Helper()
	{
		ctx := context.Background()
		s := sdk.NewServer(&sdk.Implementation{Name: "t", Version: "1"}, nil)
		d := def
		register(s, &d)
		st, ct := sdk.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		c, err := ct.Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		n := 0
		call := func(method, params string) string {
			n++
			id, _ := jsonrpc.MakeID(float64(n))
			if err := c.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(params)}); err != nil {
				t.Fatal(err)
			}
			m, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			r, ok := m.(*jsonrpc.Response)
			if !ok {
				t.Fatalf("%s: got %T, want a response", method, m)
			}
			if r.Error != nil {
				return "error: " + r.Error.Error()
			}
			return string(r.Result)
		}
		call("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
		if err := c.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		out := []string{call("tools/list", `{}`)}
		for _, a := range args {
			out = append(out, call("tools/call", `{"name":"`+def.Name+`","arguments":`+a+`}`))
		}
		return out
	}
}

var sampleArgs = []string{
	`{"id":"x"}`, `{"id":"x","limit":3,"tags":["a"]}`, `{}`, `{"id":3}`, `{"id":"x","other":1}`, `{"ID":"x"}`,
	`{"id":"fail"}`, `{"id":"text"}`, `null`,
}

// refusals are the arguments of sampleArgs the sample's schema refuses.
var refusals = map[string]bool{`{}`: true, `{"id":3}`: true, `{"id":"x","other":1}`: true, `{"ID":"x"}`: true, `null`: true}

// wordedRefusals checks that each reply in got to an argument of args
// that refusals lists is refused, as go-sdk refuses it in want, in words
// that name the tool and the argument (checkArgs, D81), and returns want
// with those replies replaced by got's, for the byte comparison of the
// rest.
func wordedRefusals(t *testing.T, args, want, got []string) []string {
	t.Helper()
	want = slices.Clone(want)
	for k, a := range args {
		if !refusals[a] {
			continue
		}
		if !strings.Contains(want[k+1], `"isError":true`) || !strings.Contains(got[k+1], `"isError":true`) || !strings.Contains(got[k+1], `"text":"sample: argument`) {
			t.Errorf("arguments %s: go-sdk answers %s\naddTool %s\nwant both refused, addTool naming the tool and the argument", a, want[k+1], got[k+1])
		}
		want[k+1] = got[k+1]
	}
	return want
}

// TestAddToolIsTheSDKs: with outputs checked (as every test runs), a tool
// served through addTool lists and answers as through go-sdk's typed
// AddTool: the schemas, tool errors, the structured output and its text,
// byte for byte; arguments the schema refuses are refused by both, and
// addTool's words name the tool and the argument.
func TestAddToolIsTheSDKs(t *testing.T) {
	defer CheckOutputs(CheckOutputs(true))
	want, got := callBoth(t, sdk.Tool{Name: "sample", Description: "d"}, sampleArgs)
	want = wordedRefusals(t, sampleArgs, want, got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("addTool differs from go-sdk's AddTool (-sdk +addTool):\n%s", d)
	}
	if w := `"structuredContent":{"alpha":[{"x":2,"y":"b"},{"x":1,"y":"a"}],"extra":{"n":"x"},"limit":0,"mid":{"p":2,"q":1},"ptr":null,"zeta":"z \u003c\u0026\u003e"}`; !strings.Contains(got[1], w) {
		t.Errorf("the first call's reply is %s\nwant it to hold %s", got[1], w)
	}
	// A schema given as a map, not a *jsonschema.Schema.
	asMap := map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}, "limit": map[string]any{"type": "integer"}}, "required": []string{"id"}}
	// checkArgs reads only a *jsonschema.Schema (every docket tool's):
	// here the refusals are go-sdk's words, byte for byte.
	want, got = callBoth(t, sdk.Tool{Name: "sample", InputSchema: asMap}, sampleArgs)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("with a schema as a map, addTool differs from go-sdk's AddTool (-sdk +addTool):\n%s", d)
	}
	// A schema with a default: the arguments are given it, as go-sdk does.
	withDefault := inSchema[sampleIn](func(p map[string]*jsonschema.Schema) { p["limit"].Default = json.RawMessage(`5`) })
	notNull := sampleArgs[:len(sampleArgs)-1] // go-sdk panics applying a default to null arguments
	want, got = callBoth(t, sdk.Tool{Name: "sample", InputSchema: withDefault}, notNull)
	want = wordedRefusals(t, notNull, want, got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("with a default, addTool differs from go-sdk's AddTool (-sdk +addTool):\n%s", d)
	}
	if !strings.Contains(got[1], `"limit":5`) {
		t.Errorf("with a default of 5 for limit, the reply is %s", got[1])
	}
	got = callWith(t, func(s *sdk.Server, d *sdk.Tool) { addTool(s, d, sampleTool) }, sdk.Tool{Name: "sample", InputSchema: withDefault}, []string{`null`})
	if !strings.Contains(got[1], `"isError":true`) || !strings.Contains(got[1], `required`) {
		t.Errorf("null arguments with a default: %s; want them taken as {} and id required", got[1])
	}
	// Arguments that are not an object: refused, naming no Go type.
	_, got = callBoth(t, sdk.Tool{Name: "sample"}, []string{`[1]`})
	if want := `"text":"sample: arguments: give an object of named arguments (sample takes id (required), limit, tags)"}],"isError":true`; !strings.Contains(got[1], want) {
		t.Errorf("arguments [1]: %s\nwant it to hold %s", got[1], want)
	}
}

// TestAddToolOutputCheck: an output its schema refuses is an error while
// outputs are checked, as go-sdk's AddTool makes it, and is sent when
// they are not (production, D82).
func TestAddToolOutputCheck(t *testing.T) {
	narrow := sdk.Tool{Name: "sample", OutputSchema: outSchema[struct {
		Zeta int `json:"zeta"`
	}]()}
	defer CheckOutputs(CheckOutputs(true))
	want, got := callBoth(t, narrow, []string{`{"id":"x"}`})
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("with outputs checked, addTool differs from go-sdk's AddTool (-sdk +addTool):\n%s", d)
	}
	CheckOutputs(false)
	_, got = callBoth(t, narrow, []string{`{"id":"x"}`})
	var res struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(got[1]), &res); err != nil || res.StructuredContent["zeta"] != "z <&>" {
		t.Errorf("with outputs unchecked, the reply is %s (%v); want the output sent", got[1], err)
	}
}
