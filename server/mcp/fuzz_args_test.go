package mcp

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzCheckArgs: any bytes as any tool's arguments are either accepted or
// refused with a message that names the tool, never a panic.
func FuzzCheckArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"priority":9}`, `{"title":""}`, `{"labels":["a b",7]}`, `[1]`, `null`, `{"limit":1e400}`, `{"id":5,"x":{}}`, `{"fields":["id","zz"]}`} {
		f.Add(s)
	}
	registry := (&tools{}).all()
	f.Fuzz(func(t *testing.T, raw string) {
		for _, tl := range registry {
			if err := checkArgs(tl.def.Name, tl.in, []byte(raw)); err != nil && !strings.HasPrefix(err.Error(), tl.def.Name+": argument") {
				t.Fatalf("%s %q: %v", tl.def.Name, raw, err)
			}
		}
	})
}

// FuzzParseCursor: a resources/list cursor is read or refused as a cursor
// this server did not give; a decision cursor reads back as written.
func FuzzParseCursor(f *testing.F) {
	for _, s := range []string{"", "d0", "d17", "d-1", "d01", "i", "iabc", "zz", "d99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cursor string) {
		kind, start, rest, err := parseCursor(cursor)
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "not one this server gave") {
				t.Fatalf("%q: %v", cursor, err)
			}
		case kind == 'd' && cursor != "" && "d"+strconv.Itoa(start) != cursor:
			t.Fatalf("%q read as decision %d", cursor, start)
		case kind == 'i' && "i"+rest != cursor:
			t.Fatalf("%q read as issues from %q", cursor, rest)
		}
	})
}
