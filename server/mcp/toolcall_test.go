package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	Raw   json.RawMessage   `json:"raw,omitempty"`
	Ptr   *sampleItem       `json:"ptr"`
	Extra map[string]string `json:"extra,omitempty"`
}

type sampleItem struct {
	Y string `json:"y"`
	X int    `json:"x"`
}

// sampleTool answers by its input: "fail" is a tool error, "wire" a
// JSON-RPC error, "bad" an output its schema refuses (a number where the
// schema says string, through the raw field's declared type).
func sampleTool(_ context.Context, _ *sdk.CallToolRequest, in sampleIn) (*sdk.CallToolResult, sampleOut, error) {
	switch in.ID {
	case "fail":
		return nil, sampleOut{}, errors.New("no such thing: fail")
	case "text":
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a summary"}}}, sampleOut{Zeta: "z", Alpha: []sampleItem{}, Mid: map[string]int{}}, nil
	}
	return nil, sampleOut{Zeta: "z <&>", Alpha: []sampleItem{{"b", 2}, {"a", 1}}, Mid: map[string]int{"q": 1, "p": 2},
		Raw: json.RawMessage(`{"k":1,"j":[true]}`), Extra: map[string]string{"n": in.ID}}, nil
}

// callBoth serves def through go-sdk's typed AddTool and through addTool,
// and returns each server's tools/list result and its replies to each
// call's arguments, as the bytes the server wrote.
func callBoth(t *testing.T, def sdk.Tool, args []string) (sdkOut, ours []string) {
	t.Helper()
	for k, register := range []func(s *sdk.Server, d *sdk.Tool){
		func(s *sdk.Server, d *sdk.Tool) { sdk.AddTool(s, d, sampleTool) },
		func(s *sdk.Server, d *sdk.Tool) { addTool(s, d, sampleTool) },
	} {
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
		if k == 0 {
			sdkOut = out
		} else {
			ours = out
		}
	}
	return sdkOut, ours
}

var sampleArgs = []string{
	`{"id":"x"}`, `{"id":"x","limit":3,"tags":["a"]}`, `{}`, `{"id":3}`, `{"id":"x","other":1}`, `{"ID":"x"}`,
	`{"id":"fail"}`, `{"id":"text"}`, `null`,
}

// TestAddToolIsTheSDKs: with outputs checked (as every test runs), a tool
// served through addTool lists and answers exactly as through go-sdk's
// typed AddTool: the schemas, the validation errors, tool errors, the
// structured output and its text, byte for byte.
func TestAddToolIsTheSDKs(t *testing.T) {
	defer CheckOutputs(CheckOutputs(true))
	want, got := callBoth(t, sdk.Tool{Name: "sample", Description: "d"}, sampleArgs)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("addTool differs from go-sdk's AddTool (-sdk +addTool):\n%s", d)
	}
	// Arguments that are not an object: the same error, but in
	// encoding/json's words ("cannot unmarshal array"), not segmentio's.
	_, got = callBoth(t, sdk.Tool{Name: "sample"}, []string{`[1]`})
	if want := `"text":"validating \"arguments\": unmarshaling arguments: json: cannot unmarshal array into Go value of type map[string]interface {}"}],"isError":true`; !strings.Contains(got[1], want) {
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

// TestGCPercent: docket mcp runs with GOGC 400 unless GOGC is set (D82).
func TestGCPercent(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	t.Setenv("GOMEMLIMIT", "1GiB") // leave the test binary's memory limit alone
	t.Setenv("GOGC", "")
	softMemoryLimit()
	if got := debug.SetGCPercent(100); got != GCPercent || GCPercent != 400 {
		t.Errorf("GC percent after softMemoryLimit: %d, want 400", got)
	}
	t.Setenv("GOGC", "50")
	softMemoryLimit()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent with GOGC set: %d, want the one the runtime took (100 here)", got)
	}
}
