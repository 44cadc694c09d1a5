// Package gitindex reads git's index file (.git/index): the paths, modes
// and stages `git ls-files -s` prints, without running git (D9).
//
// It reads versions 2, 3 and 4 of the format git documents in
// gitformat-index(5), SHA-1 object names, and verifies the trailing
// checksum as git does (an all-zero one, index.skipHash, is accepted).
// What it does not read it refuses with ErrUnsupported rather than guess:
// a split index (the "link" extension: the entries live in a shared
// file), a sparse index (the "sdir" extension, or a directory entry), any
// other extension git marks required (a lower-case signature), another
// version. A caller then asks git. A file that is not an index, is cut
// short or whose checksum is wrong is ErrCorrupt.
package gitindex

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"
)

// The errors Parse wraps; test them with errors.Is.
var (
	// ErrUnsupported is an index this package does not read: ask git.
	ErrUnsupported = errors.New("index format not read here")
	// ErrCorrupt is a file that is not a well-formed index.
	ErrCorrupt = errors.New("not a well-formed git index")
)

// Entry is one index entry: a path at one stage.
type Entry struct {
	// Path is the entry's path, relative to the top of the work tree,
	// with '/'.
	Path string
	// Mode is the entry's mode as git stores it: 0100644, 0100755,
	// 0120000 (a symbolic link) or 0160000 (a gitlink), as ls-files -s
	// prints it in octal.
	Mode uint32
	// Stage is 0, or 1-3 for a path in conflict.
	Stage uint8
}

const (
	hashLen  = sha1.Size
	fixedLen = 40 + hashLen + 2 // times, dev, ino, mode, uid, gid, size; the name; flags
	// flagExtended says a second 16-bit flags word follows (version 3+).
	flagExtended = 0x4000
	flagStage    = 0x3000
	nameMask     = 0x0fff
	modeTypeMask = 0170000
	modeDir      = 0040000
)

// Parse reads an index file's bytes. The paths of the entries it returns
// are substrings of one string, so an index of many entries costs a few
// allocations, not one per path. Of a version 2 or 3 index that string
// is data itself, not a copy: Parse takes data over, and the caller must
// not change it afterwards.
func Parse(data []byte) ([]Entry, error) {
	if len(data) < 12+hashLen {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header and a checksum", ErrCorrupt, len(data))
	}
	if string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: no DIRC signature", ErrCorrupt)
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("%w: version %d", ErrUnsupported, version)
	}
	body, sum := data[:len(data)-hashLen], data[len(data)-hashLen:]
	if !allZero(sum) {
		if h := sha1.Sum(body); !bytes.Equal(h[:], sum) {
			return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
		}
	}
	count := binary.BigEndian.Uint32(data[8:12])
	// Every entry takes at least fixedLen+1 bytes: a count the file cannot
	// hold is refused before anything is allocated for it.
	if uint64(count) > uint64(len(body)-12)/(fixedLen+1) {
		return nil, fmt.Errorf("%w: %d entries in %d bytes", ErrCorrupt, count, len(data))
	}
	p := parser{data: body, off: 12, version: version}
	entries, err := p.entries(int(count))
	if err != nil {
		return nil, err
	}
	if err := p.extensions(); err != nil {
		return nil, err
	}
	return entries, nil
}

type parser struct {
	data    []byte
	off     int
	version uint32
}

func (p *parser) corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: at byte %d: %s", ErrCorrupt, p.off, fmt.Sprintf(format, args...))
}

// entries reads count entries. Version 2 and 3 names are stored whole and
// are sliced from one copy of the entry area; version 4 names are stored
// as a cut of the previous name and a suffix, and are built into one
// buffer.
func (p *parser) entries(count int) ([]Entry, error) {
	entries := make([]Entry, 0, count)
	perName := 2 // versions 2 and 3: a start and an end
	if p.version == 4 {
		perName = 1 // an end
	}
	n := names{areaStart: p.off, bounds: make([]int, 0, perName*count)}
	for range count {
		e, err := p.entry(&n, len(entries)+1)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	n.fill(entries, p.data[n.areaStart:p.off], p.version)
	for i := range entries {
		if entries[i].Path == "" {
			return nil, fmt.Errorf("%w: entry %d has an empty name", ErrCorrupt, i+1)
		}
	}
	return entries, nil
}

// names holds where each entry's name is until the paths are made.
type names struct {
	areaStart int
	// bounds: versions 2 and 3, each name's start and end in the entry
	// area; version 4, each name's end in built.
	bounds []int
	built  []byte // version 4: every name, one after the other
	prev   []byte // version 4: the previous name
}

// fill sets the entries' paths from one string: the entry area's
// (versions 2 and 3) or the built names' (version 4).
func (n *names) fill(entries []Entry, area []byte, version uint32) {
	if version < 4 {
		// Parse owns data (its doc says so): the paths alias it.
		whole := unsafe.String(unsafe.SliceData(area), len(area))
		for i := range entries {
			entries[i].Path = whole[n.bounds[2*i]:n.bounds[2*i+1]]
		}
		return
	}
	all := unsafe.String(unsafe.SliceData(n.built), len(n.built)) // built here, never changed again
	begin := 0
	for i := range entries {
		entries[i].Path = all[begin:n.bounds[i]]
		begin = n.bounds[i]
	}
}

// entry reads the k-th entry's fixed part and its name.
func (p *parser) entry(n *names, k int) (Entry, error) {
	start := p.off
	if len(p.data)-p.off < fixedLen {
		return Entry{}, p.corrupt("entry %d cut short", k)
	}
	mode := binary.BigEndian.Uint32(p.data[p.off+24:])
	flags := binary.BigEndian.Uint16(p.data[p.off+40+hashLen:])
	p.off += fixedLen
	if flags&flagExtended != 0 {
		if p.version < 3 {
			return Entry{}, p.corrupt("an extended entry in a version 2 index")
		}
		if len(p.data)-p.off < 2 {
			return Entry{}, p.corrupt("entry %d cut short", k)
		}
		p.off += 2
	}
	if mode&modeTypeMask == modeDir {
		return Entry{}, fmt.Errorf("%w: a directory entry (sparse index)", ErrUnsupported)
	}
	var err error
	if p.version < 4 {
		err = p.wholeName(n, k, start, int(flags&nameMask))
	} else {
		err = p.cutName(n, k, int(flags&nameMask))
	}
	return Entry{Mode: mode, Stage: uint8(flags & flagStage >> 12)}, err
}

// wholeName reads a version 2 or 3 name and the NULs that pad its entry
// (from start) to a multiple of eight bytes. length is the flags' name
// length, nameMask when the name is longer.
func (p *parser) wholeName(n *names, k, start, length int) error {
	nul := bytes.IndexByte(p.data[p.off:], 0)
	if nul < 0 {
		return p.corrupt("entry %d: a name without its NUL", k)
	}
	if length < nameMask && length != nul {
		return p.corrupt("entry %d: name of %d bytes, flags say %d", k, nul, length)
	}
	n.bounds = append(n.bounds, p.off-n.areaStart, p.off+nul-n.areaStart)
	size := (p.off - start + nul + 8) &^ 7 // 1-8 NULs
	if start+size > len(p.data) {
		return p.corrupt("entry %d: padding past the end", k)
	}
	p.off = start + size
	return nil
}

// cutName reads a version 4 name: how many bytes to cut from the end of
// the previous name, then what to append to it.
func (p *parser) cutName(n *names, k, length int) error {
	cut, used, ok := varint(p.data[p.off:])
	if !ok || cut > uint64(len(n.prev)) {
		return p.corrupt("entry %d: a name cut of %d bytes from a name of %d", k, cut, len(n.prev))
	}
	p.off += used
	nul := bytes.IndexByte(p.data[p.off:], 0)
	if nul < 0 {
		return p.corrupt("entry %d: a name without its NUL", k)
	}
	begin := len(n.built)
	n.built = append(n.built, n.prev[:len(n.prev)-int(cut)]...)
	n.built = append(n.built, p.data[p.off:p.off+nul]...)
	n.prev = n.built[begin:]
	if length < nameMask && length != len(n.prev) {
		return p.corrupt("entry %d: name of %d bytes, flags say %d", k, len(n.prev), length)
	}
	n.bounds = append(n.bounds, len(n.built))
	p.off += nul + 1
	return nil
}

// extensions reads the extensions after the entries: those git may
// ignore (an upper-case first letter) are skipped; a split or sparse
// index, or any other extension git requires, is ErrUnsupported.
func (p *parser) extensions() error {
	for p.off < len(p.data) {
		if len(p.data)-p.off < 8 {
			return p.corrupt("an extension header cut short")
		}
		sig := p.data[p.off : p.off+4]
		size := binary.BigEndian.Uint32(p.data[p.off+4:])
		if uint64(size) > uint64(len(p.data)-p.off-8) {
			return p.corrupt("extension %q of %d bytes past the end", sig, size)
		}
		if sig[0] < 'A' || sig[0] > 'Z' {
			return fmt.Errorf("%w: the required extension %q", ErrUnsupported, sig)
		}
		p.off += 8 + int(size)
	}
	return nil
}

// varint decodes git's offset varint (gitformat-index(5), version 4):
// each continuation adds one before shifting, so no value has two
// encodings.
func varint(b []byte) (v uint64, n int, ok bool) {
	for n < len(b) && n < 10 {
		c := b[n]
		n++
		if n == 1 {
			v = uint64(c & 127)
		} else {
			v = (v+1)<<7 | uint64(c&127)
		}
		if c&128 == 0 {
			return v, n, true
		}
	}
	return 0, n, false
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
