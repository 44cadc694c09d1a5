package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// roundTrip is what go-sdk sends for a tool's output: the value decoded
// and encoded again.
func roundTrip(t testing.TB, b []byte) []byte {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSortKeys(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{}`, `{}`},
		{`[]`, `[]`},
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{`{"a":{"d":[{"z":1,"y":2}],"c":null},"B":true}`, `{"B":true,"a":{"c":null,"d":[{"y":2,"z":1}]}}`},
		{` { "b" : "x\"}" , "a" : [ 1 , 2 ] } `, `{"a":[1,2],"b":"x\"}"}`},
		{`{"a":1,"a":2,"b":3,"a":4}`, `{"a":4,"b":3}`},
		{`{"\u0062":1,"a":2}`, `{"a":2,"\u0062":1}`},
		{`{"ab":1,"a":2,"a\u0000":3}`, `{"a":2,"a\u0000":3,"ab":1}`},
		{`"s"`, `"s"`},
		{`-1.5e3`, `-1.5e3`},
	} {
		got, err := sortKeys([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("sortKeys(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":}`, `[1,]`, `{"a":1}x`, `tru`, `{"a":1,}`, `"x`, `[1 2]`} {
		if got, err := sortKeys([]byte(bad)); err == nil {
			t.Errorf("sortKeys(%q) = %s, want an error", bad, got)
		}
	}
}

// TestSortKeysIsTheSDKBytes: on the outputs the tools send (json.Marshal
// of Go values: numbers and strings in encoding/json's own form), sortKeys
// gives the bytes of go-sdk's round trip.
func TestSortKeysIsTheSDKBytes(t *testing.T) {
	type inner struct {
		Z string         `json:"z"`
		A []int          `json:"a"`
		M map[string]int `json:"m"`
	}
	v := struct {
		Title  string          `json:"title"`
		Items  []inner         `json:"items"`
		Raw    json.RawMessage `json:"raw"`
		Nil    *inner          `json:"nil"`
		Amount float64         `json:"amount"`
	}{"<x> & \"y\" é \u2028", []inner{{"b", []int{3, 1}, map[string]int{"q": 1, "p": 2}}, {}}, json.RawMessage(`{"k":{"y":1,"x":[true,false]},"j":"s"}`), nil, 2.5}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sortKeys(b)
	if err != nil {
		t.Fatal(err)
	}
	if want := roundTrip(t, b); !bytes.Equal(got, want) {
		t.Errorf("sortKeys:\n%s\nround trip:\n%s", got, want)
	}
}

// FuzzSortKeys: on any valid JSON, sortKeys keeps the value (the round
// trip of its output is the round trip of its input) and its output is
// valid JSON whose keys are in order (sorting again changes nothing); on
// anything else it says so instead of guessing.
func FuzzSortKeys(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[{"d":2,"c":3}]}`, `{"a":1,"a":2}`, `[1,"x",null,true]`, `{"\u00e9":1,"e":2}`, `{`, `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := sortKeys(b)
		if !json.Valid(b) {
			if err == nil {
				t.Fatalf("sortKeys(%q) = %q, want an error", b, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("sortKeys(%q): %v", b, err)
		}
		if !json.Valid(got) {
			t.Fatalf("sortKeys(%q) = %q, not JSON", b, got)
		}
		var v any
		if json.Unmarshal(b, &v) == nil { // not so for numbers past float64 (1E700)
			if want := roundTrip(t, b); !bytes.Equal(roundTrip(t, got), want) {
				t.Fatalf("sortKeys(%q) = %q: a different value", b, got)
			}
		}
		again, err := sortKeys(got)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("sortKeys(%q) = %q, sorted again %q, %v", b, got, again, err)
		}
	})
}
