package check

import (
	"fmt"
	"strings"

	"github.com/claimslint/claimslint/internal/codeline"
)

// first: the first code line of each block a Within cell opens matches
// Anchor: the first member of a struct, the first arm of a match, the
// first statement of a function (D95).
//
//registry:kinds 10
type firstKind struct{}

func (firstKind) Name() string { return "first" }

func (firstKind) scoped() {}

func (firstKind) mustMutate() {}

func (firstKind) ProveDoc() string {
	return `each first line the claim rests on is moved below the next
code line.`
}

func (firstKind) Doc() string {
	return `needs a Within cell (D94): the first non-blank code line of each
block it opens matches Anchor (and Require on that line, !re: must
not): "Statistics is the first member of Conn". An empty block fails.`
}

func (firstKind) Prepare(c *claim) bool {
	if strings.TrimSpace(c.c.Within) == "" {
		c.malformed(c.c.CellPos("kind"), "%s: a first claim needs a Within cell: the block whose first line it pins (add a Within column to the table)", c.name())
		return false
	}
	return c.prepareLines(&lineSpec{skipTests: true, first: true})
}

func (firstKind) Evaluate(c *claim) {
	if c.judged() {
		return
	}
	row := c.c
	for _, h := range c.reqFail {
		if h.text == "" {
			c.fail(h.pos(), "first: the block opened at %s holds no code line; its first line must match %s", h, quoteRE(row.Anchor))
			continue
		}
		c.fail(h.pos(), "first: the first line of its block is %q, which does not match %s", strings.TrimSpace(h.text), quoteRE(row.Anchor))
	}
	for _, h := range c.code {
		c.hold(h.String())
		if !c.requireOK(h.text) {
			if c.lines.negate {
				c.fail(h.pos(), "first line of its block matches forbidden %s", quoteRE(strings.TrimPrefix(row.Require, "!")))
			} else {
				c.fail(h.pos(), "first line of its block does not match Require %s", quoteRE(row.Require))
			}
		}
	}
}

// Mutants: the first line moved below the next code line of its block (a
// member or arm added above it), and its Require broken as anchored's.
func (firstKind) Mutants(c *claim) ([]mutant, bool) {
	var ms []mutant
	for i, h := range c.code {
		if i == 8 {
			break
		}
		b, ok := c.blockOf(h.file, h.line)
		src, ok2 := fileLines(c, h.file)
		if !ok || !ok2 || h.line > len(src) {
			continue
		}
		// The next code line: comments and blank lines are not members.
		code := strings.SplitAfter(string(codeline.Mask(h.file, []byte(strings.Join(src, "")))), "\n")
		next := 0
		for l := h.line + 1; l <= b.Last && l <= len(src) && l <= len(code); l++ {
			if strings.TrimSpace(code[l-1]) != "" {
				next = l
				break
			}
		}
		if next == 0 || !strings.HasSuffix(src[next-1], "\n") {
			continue
		}
		mod := append([]string{}, src[:h.line-1]...)
		mod = append(mod, src[h.line:next]...)
		mod = append(mod, src[h.line-1])
		mod = append(mod, src[next:]...)
		ms = append(ms, mutant{file: h.file, line: h.line, desc: fmt.Sprintf("%s:%d is moved below %s:%d", h.file, h.line, h.file, next), src: []byte(strings.Join(mod, ""))})
	}
	return append(ms, lineMutants(c)...), true
}
