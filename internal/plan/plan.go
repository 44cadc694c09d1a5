// Package plan holds what the writing commands share: a Plan of file
// changes made in memory first (so a dry run prints the exact diff and a
// real run writes exactly that), reading beneath the repository root,
// and the writers of a register row. internal/author (new, accept,
// status, init) and internal/adopt (init --adopt) both build Plans; plan
// imports neither.
package plan

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
	"github.com/rogpeppe/go-internal/diff"
)

// Change is one file's planned content.
type Change struct {
	Path     string // repository-relative
	Old, New []byte // Old is nil for a new file
}

// Plan is what new, init or a status change will do.
type Plan struct {
	ID      string
	File    string
	Changes []Change
	// Existing is set when a decision with this title already exists: the
	// plan is empty and running it again changes nothing.
	Existing string
	// Adopted lists, for init --adopt, each existing record and its id.
	Adopted []string
	// Summary is what init --adopt found, printed before it writes (D72).
	Summary []string
	// Notes are what the user should know: records skipped, statuses not
	// in the vocabulary.
	Notes []string
	// Inferred are the settings init --adopt read from an inline
	// register's tree, each with why (D65).
	Inferred []Inferred
	// Addition is what init --adopt would add to an existing
	// .claimslint.yml, which it never overwrites.
	Addition string
	// Next are the steps to print after the plan, when they are not
	// init's usual ones.
	Next []string
}

func SortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// Paths lists the existing files the plan edits (for the dirty check).
func (p *Plan) Paths() []string {
	var out []string
	for _, c := range p.Changes {
		if c.Old != nil {
			out = append(out, c.Path)
		}
	}
	return out
}

// Diff is the unified diff of the plan.
func (p *Plan) Diff() []byte {
	var b bytes.Buffer
	for _, c := range p.Changes {
		oldName := "a/" + c.Path
		if c.Old == nil {
			oldName = "/dev/null"
		}
		b.Write(diff.Diff(oldName, c.Old, "b/"+c.Path, c.New))
	}
	return b.Bytes()
}

// Apply writes the plan under dir. Each file is replaced by rename, so a
// crash leaves every file either old or new.
//
// Every path is opened beneath dir with os.Root: a register, range site or
// directory that is a symbolic link out of the repository is refused, never
// read or written through (issue 16).
func (p *Plan) Apply(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, c := range p.Changes {
		name := filepath.FromSlash(c.Path)
		if err := root.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		tmp := name + ".claimslint-new"
		// An edited file keeps its mode: a gate script whose knob line
		// moves with the live range stays executable (D64).
		mode := os.FileMode(0o644)
		if st, err := root.Lstat(name); err == nil && st.Mode().IsRegular() {
			mode = st.Mode().Perm()
		}
		if err := root.WriteFile(tmp, c.New, mode); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		if err := root.Chmod(tmp, mode); err != nil {
			root.Remove(tmp)
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		if err := root.Rename(tmp, name); err != nil {
			root.Remove(tmp)
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
	}
	return nil
}

// AddEdits adds a change for each file of edits (a path relative to dir
// and its new content) whose content differs from the file's in dir, in
// path order.
func (p *Plan) AddEdits(dir string, edits map[string][]byte) error {
	for _, rel := range SortedKeys(edits) {
		orig, err := ReadIn(dir, rel)
		if err != nil {
			return err
		}
		if !bytes.Equal(orig, edits[rel]) {
			p.Changes = append(p.Changes, Change{Path: rel, Old: orig, New: edits[rel]})
		}
	}
	return nil
}

// ReadIn reads rel beneath dir, following links only inside it: a regular
// file of at most snapshot.MaxMarkdown bytes, never a named pipe a read
// would wait on (repo.ReadIn).
func ReadIn(dir, rel string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return repo.ReadIn(root, filepath.FromSlash(rel), snapshot.MaxMarkdown)
}

// ReadDirIn lists the directory rel beneath dir, as ReadIn reads a file:
// through os.Root, so neither it nor a link in its path leads outside the
// repository (D9).
func ReadDirIn(dir, rel string) ([]os.DirEntry, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	es, err := f.ReadDir(-1)
	slices.SortFunc(es, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }) // as os.ReadDir
	return es, err
}

var nonSlug = register.LazyRE(`[^a-z0-9]+`)

// Slug turns a title into a file-name part: lower case, words joined by
// '-', at most 60 bytes, cut at a word boundary.
func Slug(title string) string {
	s := strings.Trim(nonSlug().ReplaceAllString(strings.ToLower(title), "-"), "-")
	if len(s) > 60 {
		s = s[:60]
		if i := strings.LastIndexByte(s, '-'); i > 20 {
			s = s[:i]
		}
	}
	if s == "" {
		s = "decision"
	}
	return s
}

// NewRow inserts the register row after the last row, with a cell for each
// header column: the id, a link titled with the decision's title, the
// status, and empty cells for any other column.
func NewRow(src []byte, reg *register.Register, id, title, link, status string) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	first, last := reg.Rows[0].Pos.Line, reg.Rows[len(reg.Rows)-1].Pos.Line
	if first < 3 || last > len(lines) {
		return nil, fmt.Errorf("cannot find the register table's header above line %d", first)
	}
	header := strings.Trim(strings.TrimSpace(lines[first-3]), "|")
	var cells []string
	for _, h := range strings.Split(header, "|") {
		switch h = strings.ToLower(strings.TrimSpace(h)); {
		case h == "id":
			cells = append(cells, id)
		case strings.Contains(h, "decision") || strings.Contains(h, "title"):
			cells = append(cells, fmt.Sprintf("[%s](%s)", title, LinkDest(link)))
		case h == "status":
			cells = append(cells, status)
		default:
			cells = append(cells, "")
		}
	}
	row := "| " + strings.Join(cells, " | ") + " |\n"
	row = strings.ReplaceAll(row, "|  |", "| |")
	if !strings.HasSuffix(lines[last-1], "\n") {
		lines[last-1] += "\n"
	}
	out := append(append(append([]string{}, lines[:last]...), row), lines[last:]...)
	return []byte(strings.Join(out, "")), nil
}

// WritesWorkflow reports whether the plan creates or changes a workflow
// file (init's doc-lint.yml), whose pin the user should hear about.
func (p *Plan) WritesWorkflow() bool {
	for _, ch := range p.Changes {
		if strings.HasPrefix(ch.Path, ".github/workflows/") {
			return true
		}
	}
	return false
}

// Inferred is one setting init --adopt read from an inline register's
// repository, and why (D65).
type Inferred struct {
	Key   string // inline.markers, tracker.export, range_sites...
	Value string // as .claimslint.yml writes it
	Why   string
}

// LinkDest writes a link destination: in angle brackets when the path has
// a space (a record named "…-0010-Observability-component metrics
// scraping.md"), as CommonMark reads it.
func LinkDest(p string) string {
	// A # or % in a file name is escaped, so the link names the file, not
	// a fragment (register.LinkTarget decodes it; D96).
	p = strings.NewReplacer("%", "%25", "#", "%23").Replace(p)
	if strings.ContainsAny(p, " \t") {
		return "<" + p + ">"
	}
	return p
}

func RowTitle(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "|", "-"), "\n", " ")
}

// OrNone is s, or "none (untracked)" for a status or file mode the
// repository does not set, as a message names it.
func OrNone(s string) string {
	if s == "" {
		return "none (untracked)"
	}
	return s
}
