package check

import (
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/glob"
)

// allow: an exception to an absent claim of the same decision (D66). A
// sweep of the whole tree has places where its phrase is true or quoted
// on purpose (the generated tracker export, a historical record, the
// script that holds the pattern); each is a row, with its reason in Why,
// instead of a Path no glob can write.
//
//registry:kinds 5
type allowKind struct{}

func (allowKind) Name() string { return "allow" }

func (allowKind) ProveDoc() string {
	return ""
}

func (allowKind) Doc() string {
	return `excuses lines from the absent claim of the same decision that
Require names (its id, C3): a line of the files of Path that matches
Anchor (every line of them, when Anchor is empty), read as that
claim's scope reads it, is not a match of it. It takes no scope and
holds when its Path matches a file; that it still excuses a line is a
separate claim (anchored:all on the same Path and Anchor).`
}

// exception is one allow row as the absent claim it excuses applies it.
type exception struct {
	path   string
	anchor *regexp.Regexp // nil: every line of the files of path
}

// excuses reports whether the exception covers the hit h.
func (e exception) excuses(h hit) bool {
	return glob.Match(e.path, h.file) && (e.anchor == nil || e.anchor.MatchString(h.text))
}

func (allowKind) Prepare(c *claim) bool {
	row := c.c
	if row.Path == "" || row.Require == "" {
		c.malformed(row.Pos, "%s: an allow row needs Path and, in Require, the id of the absent claim it excuses", c.name())
		return false
	}
	if !c.prepareFiles() {
		return false
	}
	if row.Anchor != "" {
		re, ok := c.compileRE("anchor", row.Anchor)
		if !ok {
			return false
		}
		c.except = &exception{path: row.Path, anchor: re}
	} else {
		c.except = &exception{path: row.Path}
	}
	return true
}

// link attaches each allow row to the absent claim its Require names, once
// every row is prepared and before any file is scanned: an exception
// applied after the scan would come too late, since a claim keeps only its
// first maxHits matches.
func link(all []*claim) {
	byID := map[string]*claim{}
	for _, c := range all {
		byID[c.d.FileID+"\x00"+c.c.ID] = c
	}
	for _, c := range all {
		if c.except == nil || c.kind == nil {
			continue
		}
		id := strings.TrimSpace(c.c.Require)
		t, ok := byID[c.d.FileID+"\x00"+id]
		switch {
		case !ok:
			c.malformed(c.c.CellPos("require"), "%s: Require names %s, which is no claim of %s: write the id of the absent claim this row excuses", c.name(), id, c.d.FileID)
			c.kind = nil
		case t.kind == nil:
			// The target is malformed and reported; the exception waits.
		case t.kind.Name() != "absent" || t.lines == nil:
			c.malformed(c.c.CellPos("require"), "%s: Require names %s, whose kind is %s: allow excuses lines of absent claims only", c.name(), id, t.c.Kind)
			c.kind = nil
		default:
			t.lines.allows = append(t.lines.allows, *c.except)
		}
	}
}

func (allowKind) Evaluate(c *claim) { c.noFiles() }

func (allowKind) Mutants(*claim) ([]mutant, bool) { return nil, false }
