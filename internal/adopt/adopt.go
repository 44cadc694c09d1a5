// Package adopt is init --adopt and what new writes into an adopted
// collection: an existing collection of decision records read in place
// (its folders' schemes: name pattern, ids, where the status lives; D41,
// D72), a register of rows without decision files adopted as it is kept
// (D35, D65), and a new record written in the collection's own dialect,
// from its template or the shape of its newest records (D73, D96).
//
// internal/author (new, the lifecycle, init's greenfield path) calls the
// entry points below; adopt never imports author (D100). Both build an
// internal/plan Plan.
package adopt

import (
	"time"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
)

// InitOptions are what adoption reads of init's inputs.
type InitOptions struct {
	Dir string
	// Source and Ref say where the generated workflow builds claimslint
	// from (D43), for the gate steps added to an inline register's
	// workflow.
	Source, Ref string
}

// NewOptions are what a new record of an adopted collection reads of
// new's inputs.
type NewOptions struct {
	Dir        string
	Status     string
	Supersedes string // the record superseded: D43, or a clause D43(6)
	Date       time.Time
	// Author fills the record's author or decider field (D96).
	Author string
}

// Collection is an adopted collection of records, as new and init write
// its next record.
type Collection struct{ c *collection }

func (c *Collection) inner() *collection {
	if c == nil {
		return nil
	}
	return c.c
}

// Find reads the collection in dir (or, when dir is "", the first of
// AdoptDirs that has records) for init --adopt.
func Find(root, dir string, cfg config.Config) (*Collection, error) {
	c, err := findCollection(root, dir, cfg)
	if err != nil {
		return nil, err
	}
	return &Collection{c}, nil
}

// Adopted is the collection a repository already adopted, from its
// snapshot's records and adopt:.
func Adopted(schemes []register.Scheme, ds []*register.Decision) *Collection {
	return &Collection{adoptedCollection(schemes, ds)}
}

// NextPath is the file of the collection's next record titled title.
func (c *Collection) NextPath(title string, date time.Time) string {
	return c.c.nextPath(title, date)
}

// NextID is the id of the next record at p; maxID is the highest plain
// id in use and taken holds the ids in use (D72).
func (c *Collection) NextID(p string, maxID int, taken map[string]bool) string {
	return c.c.nextID(p, maxID, taken)
}

// NewRecord is the text of the new record at file, in the collection's
// dialect (D73, D96); old is the record it supersedes, if any, and vocab
// the status vocabulary check reads it with.
func (c *Collection) NewRecord(o NewOptions, file, title string, old *register.Decision, vocab map[string]string) ([]byte, error) {
	return newInDialect(o, c.c, file, title, old, vocab)
}

// Records are the collection's records, each as "path is ID, status".
func (c *Collection) Records() []string {
	var out []string
	for _, r := range c.c.records {
		out = append(out, adoptedLine(r))
	}
	return out
}

// Summary is what init --adopt found, printed before it writes (D72).
func (c *Collection) Summary() []string { return c.c.summary() }

// InlineHint is what plain init says when the register it would create
// exists and reads as an inline register.
func InlineHint(dir string, cfg config.Config) string { return inlineHint(dir, cfg) }

// WorldLang is the language of the world vocabulary a status word is in,
// "" when it is in none (D97).
func WorldLang(w string) string { return worldLang(w) }

// SpelledLabel is the link text an adopted record's tool writes for the
// record at file titled title that supersedes old (D73), in the
// collection's id spelling
// (KEP-N, RFC-N) where its record names are bare numbers (D96).
func SpelledLabel(read func(string) ([]byte, error), old *register.Decision, src []byte, file, title string) string {
	return spelledLabel(read, old, src, file, title)
}
