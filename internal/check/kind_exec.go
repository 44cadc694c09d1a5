package check

import "go/token"

// exec: every file of Path is an executable script in the git index and on
// disk.
//
//registry:kinds 6
type execKind struct{}

func (execKind) Name() string { return "exec" }

func (execKind) readsModes() {}

func (execKind) ProveDoc() string {
	return ""
}

func (execKind) Doc() string {
	return `every file matched by Path is mode 100755 in the git index and
executable on disk.`
}

func (execKind) Prepare(c *claim) bool {
	if c.c.Path == "" {
		c.malformed(c.c.Pos, "%s: an exec claim needs Path (a glob of scripts)", c.name())
		return false
	}
	return c.prepareFiles()
}

func (execKind) Evaluate(c *claim) {
	if c.noFiles() {
		return
	}
	for _, f := range c.files {
		if msg := execProblem(c.snap, f); msg != "" {
			c.fail(token.Position{Filename: f, Line: 1, Column: 1}, "%s", msg)
		} else {
			c.hold(f)
		}
	}
}

// Mutants: an exec claim rests on index modes, not on lines; prove does
// not mutate it.
func (execKind) Mutants(*claim) ([]mutant, bool) { return nil, false }
