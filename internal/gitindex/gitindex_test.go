package gitindex

import (
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
)

// encode writes an index of version v holding es, as git lays it out
// (gitformat-index(5)); ext is appended after the entries; zeroSum writes
// an all-zero checksum (index.skipHash). extended marks every entry
// extended (version 3 and 4 only).
func encode(v uint32, es []Entry, ext []byte, zeroSum, extended bool) []byte {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, v)
	b = binary.BigEndian.AppendUint32(b, uint32(len(es)))
	prev := ""
	for _, e := range es {
		start := len(b)
		b = append(b, make([]byte, 24)...) // ctime, mtime, dev, ino
		b = binary.BigEndian.AppendUint32(b, e.Mode)
		b = append(b, make([]byte, 12+hashLen)...) // uid, gid, size, the name
		flags := uint16(min(len(e.Path), nameMask)) | uint16(e.Stage)<<12
		if extended {
			flags |= flagExtended
		}
		b = binary.BigEndian.AppendUint16(b, flags)
		if extended {
			b = binary.BigEndian.AppendUint16(b, 0x4000) // skip-worktree
		}
		if v < 4 {
			b = append(b, e.Path...)
			size := (len(b) - start + 8) &^ 7
			b = append(b, make([]byte, start+size-len(b))...)
			continue
		}
		common := 0
		for common < len(prev) && common < len(e.Path) && prev[common] == e.Path[common] {
			common++
		}
		b = appendVarint(b, uint64(len(prev)-common))
		b = append(b, e.Path[common:]...)
		b = append(b, 0)
		prev = e.Path
	}
	b = append(b, ext...)
	if zeroSum {
		return append(b, make([]byte, hashLen)...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
}

// appendVarint is the encoder of git's offset varint (varint.c).
func appendVarint(b []byte, v uint64) []byte {
	var tmp [16]byte
	pos := len(tmp) - 1
	tmp[pos] = byte(v & 127)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		pos--
		tmp[pos] = 128 | byte(v&127)
	}
	return append(b, tmp[pos:]...)
}

func extension(sig string, data []byte) []byte {
	b := append([]byte(sig), 0, 0, 0, 0)
	binary.BigEndian.PutUint32(b[4:], uint32(len(data)))
	return append(b, data...)
}

var sample = []Entry{
	{Path: ".gitignore", Mode: 0o100644},
	{Path: "a.go", Mode: 0o100644, Stage: 1},
	{Path: "a.go", Mode: 0o100644, Stage: 2},
	{Path: "a.go", Mode: 0o100755, Stage: 3},
	{Path: "link", Mode: 0o120000},
	{Path: "pkg/sub/x.go", Mode: 0o100644},
	{Path: "pkg/sub/xy.go", Mode: 0o100644},
	{Path: "pkg/z.go", Mode: 0o100644},
	{Path: "vendor/mod", Mode: 0o160000},
	{Path: "exactly8", Mode: 0o100644},                                // 62+8 bytes: padded with 2 NULs
	{Path: strings.Repeat("long/", 1000) + "name.go", Mode: 0o100644}, // over 4,095 bytes: its length is not in the flags
}

// TestParse: each version's layout, checksums, extensions and the forms
// refused, with the error each is refused with.
func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		data []byte
		want []Entry
		err  error
	}{
		{"version 2", encode(2, sample, nil, false, false), sample, nil},
		{"version 3, extended entries", encode(3, sample, nil, false, true), sample, nil},
		{"version 4, names cut from the previous", encode(4, sample, nil, false, true), sample, nil},
		{"no entries", encode(2, nil, nil, false, false), []Entry{}, nil},
		{"skipHash's zero checksum", encode(2, sample, nil, true, false), sample, nil},
		{"optional extensions skipped", encode(2, sample, append(extension("TREE", []byte("tree data")), extension("UNTR", nil)...), false, false), sample, nil},
		{"split index", encode(2, sample, extension("link", make([]byte, 20)), false, false), nil, ErrUnsupported},
		{"sparse index", encode(2, sample, extension("sdir", nil), false, false), nil, ErrUnsupported},
		{"a directory entry", encode(3, []Entry{{Path: "dir/", Mode: 0o040000}}, nil, false, false), nil, ErrUnsupported},
		{"version 5", func() []byte { b := encode(2, sample, nil, true, false); b[7] = 5; return b }(), nil, ErrUnsupported},
		{"extended entry in version 2", encode(2, sample, nil, false, true), nil, ErrCorrupt},
		{"checksum mismatch", func() []byte { b := encode(2, sample, nil, false, false); b[20]++; return b }(), nil, ErrCorrupt},
		{"not an index", append([]byte("PACK"), make([]byte, 40)...), nil, ErrCorrupt},
		{"empty", nil, nil, ErrCorrupt},
		{"cut short", func() []byte {
			b := encode(2, sample, nil, true, false)
			return append(b[:100], make([]byte, hashLen)...)
		}(), nil, ErrCorrupt},
		{"count past the file", func() []byte {
			b := encode(2, sample, nil, true, false)
			binary.BigEndian.PutUint32(b[8:], 1<<31)
			return b
		}(), nil, ErrCorrupt},
		{"extension past the end", encode(2, sample, append([]byte("TREE"), 0xff, 0, 0, 0), true, false), nil, ErrCorrupt},
		{"version 4 cut longer than the previous name", func() []byte {
			b := encode(4, []Entry{{Path: "a", Mode: 0o100644}}, nil, true, false)
			b[12+fixedLen] = 5 // cut 5 bytes from the empty first name
			return b
		}(), nil, ErrCorrupt},
		{"name length in the flags wrong", func() []byte {
			b := encode(2, []Entry{{Path: "abc", Mode: 0o100644}}, nil, true, false)
			b[12+fixedLen-1] = 2
			return b
		}(), nil, ErrCorrupt},
	} {
		got, err := Parse(tc.data)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: err %v, want %v", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestVarint: git's offset varint round-trips and has one encoding per
// value.
func TestVarint(t *testing.T) {
	t.Parallel()
	for _, v := range []uint64{0, 1, 127, 128, 16383, 16384, 1 << 20, 1<<35 + 3} {
		b := appendVarint(nil, v)
		got, n, ok := varint(b)
		if !ok || got != v || n != len(b) {
			t.Errorf("varint(%x) = %d, %d, %v; want %d", b, got, n, ok, v)
		}
	}
	if _, _, ok := varint([]byte{0x80, 0x80}); ok {
		t.Error("an unterminated varint decoded")
	}
}

// FuzzParse: no input panics, and what Parse accepts is bounded by the
// input's size: an entry takes at least fixedLen+1 bytes.
func FuzzParse(f *testing.F) {
	for _, v := range []uint32{2, 3, 4} {
		f.Add(encode(v, sample, nil, true, v > 2))
		f.Add(encode(v, sample[:3], extension("TREE", []byte("x")), true, false))
	}
	f.Add([]byte("DIRC"))
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("an error without its code: %v", err)
			}
			return
		}
		if len(es)*(fixedLen+1) > len(data) {
			t.Fatalf("%d entries from %d bytes", len(es), len(data))
		}
		for _, e := range es {
			if e.Path == "" || e.Stage > 3 {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
