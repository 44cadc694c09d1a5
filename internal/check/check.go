// Package check evaluates a decision register against a repository: the
// register rules (CL001-CL008) and the claims of every decision. It returns
// structured findings and never prints; the caller sorts and formats them.
package check

import (
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/tracker"
)

// Options configure a run.
type Options struct {
	// Dir is the repository root to check.
	Dir string
	// Decision, when set, limits claim evaluation to one decision; the
	// register rules still run.
	Decision string
	// Base, when set, is a git revision: claim rows changed since Base
	// must come with a change to the lines they anchor on (CL011), and
	// rows of accepted decisions must not be deleted (CL012).
	Base string
}

// Claim states reported by list.
const (
	StateOK      = "ok"
	StateFailed  = "failed"
	StatePending = "pending"
	StateRetired = "retired"
)

// ClaimState is the outcome of one claim, the record `claimslint list` prints.
type ClaimState struct {
	Decision string `json:"decision"`
	Status   string `json:"status"`
	Claim    string `json:"claim"`
	Kind     string `json:"kind"`
	State    string `json:"state"`
	// Where lists path:line of the code lines the claim rests on now.
	Where   []string `json:"where"`
	Message string   `json:"message,omitempty"`
	Row     string   `json:"row"`
}

// Result is everything a run found.
type Result struct {
	Findings []diag.Finding
	Claims   []ClaimState
	// Notes are things the user should know that are not findings, such as
	// files skipped because they are binary.
	Notes []string
	// Register and Decisions are the parsed inputs, for other commands.
	Register  *register.Register
	Decisions []*register.Decision
	Config    config.Config
	Repo      *repo.Repo
	Export    *tracker.Export

	globs map[string][]string // matchGlob's cache: claims share globs
}

// Run checks the repository at opts.Dir. An error means the check could not
// be carried out (bad configuration, unreadable register); problems in the
// register's content are findings.
func Run(opts Options) (*Result, error) {
	cfg, err := config.Load(opts.Dir)
	if err != nil {
		return nil, err
	}
	rp, err := repo.Open(opts.Dir)
	if err != nil {
		return nil, err
	}
	res := &Result{Config: cfg, Repo: rp}
	if err := res.load(); err != nil {
		return nil, err
	}
	res.registerRules()
	res.rangeRule()
	res.trackerRule()
	res.countRule()
	res.scriptRule()
	res.evalClaims(opts.Decision)
	if opts.Base != "" {
		if err := res.baseRules(opts.Dir, opts.Base); err != nil {
			return nil, err
		}
	}
	res.Findings = diag.Dedupe(res.Findings)
	sort.Slice(res.Claims, func(i, j int) bool {
		a, b := res.Claims[i], res.Claims[j]
		if a.Decision != b.Decision {
			return register.IDNumber(a.Decision) < register.IDNumber(b.Decision)
		}
		return claimLess(a.Claim, b.Claim)
	})
	sort.Strings(res.Notes)
	return res, nil
}

// claimLess orders C2 before C10.
func claimLess(a, b string) bool {
	na, nb := trailingNumber(a), trailingNumber(b)
	if na >= 0 && nb >= 0 && strings.TrimRight(a, "0123456789") == strings.TrimRight(b, "0123456789") {
		return na < nb
	}
	return a < b
}

func trailingNumber(s string) int {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 9 {
		return -1
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
	}
	return n
}

func (r *Result) add(f diag.Finding) { r.Findings = append(r.Findings, f) }

func (r *Result) errorf(pos token.Position, rule, format string, args ...any) {
	r.add(diag.Finding{Pos: pos, Check: rule, Severity: diag.SeverityError, Message: fmt.Sprintf(format, args...)})
}

// maxMarkdown bounds the size of a register or decision file.
const maxMarkdown = 16 << 20

func (r *Result) readDoc(rel string) ([]byte, error) {
	data, err := r.Repo.ReadDoc(rel, maxMarkdown)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, describe(err))
	}
	return data, nil
}

// describe turns low-level file errors into a sentence a user can act on.
func describe(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file")
	case strings.Contains(err.Error(), "too many levels of symbolic links"):
		return errors.New("symbolic link loop")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (r *Result) load() error {
	cfg := r.Config
	data, err := r.readDoc(cfg.Register)
	if err != nil {
		return fmt.Errorf("register: %w (set register: in %s)", err, config.FileName)
	}
	r.Register = register.ParseRegisterWith(cfg.Register, data, registerOptions(cfg))
	r.Findings = append(r.Findings, r.Register.Findings...)

	dir := strings.TrimSuffix(path.Clean(cfg.Decisions), "/") + "/"
	for _, f := range r.Repo.Files {
		if !strings.HasPrefix(f, dir) || strings.Contains(f[len(dir):], "/") || !strings.HasSuffix(f, ".md") {
			continue
		}
		base := f[len(dir):]
		if !register.FileNameRE.MatchString(base) {
			if len(base) > 1 && base[0] == 'D' && base[1] >= '0' && base[1] <= '9' {
				r.errorf(token.Position{Filename: f, Line: 1, Column: 1}, register.RuleRegister,
					"decision file name %q: want D<n>-<slug>.md", base)
			}
			continue
		}
		r.addDecision(f, "decision file", register.ParseDecision)
	}
	if cfg.Adopt != "" {
		// Existing MADR / adr-tools records, read in place (D33).
		adir := strings.TrimSuffix(path.Clean(cfg.Adopt), "/") + "/"
		for _, f := range r.Repo.Files {
			if !strings.HasPrefix(f, adir) || strings.Contains(f[len(adir):], "/") || register.AdoptedID(f[len(adir):]) == "" {
				continue
			}
			r.addDecision(f, "adopted record", register.ParseAdopted)
		}
	}
	if cfg.Inline != nil {
		r.addInline()
	}
	sort.Slice(r.Decisions, func(i, j int) bool {
		a, b := register.IDNumber(r.Decisions[i].FileID), register.IDNumber(r.Decisions[j].FileID)
		if a != b {
			return a < b
		}
		return r.Decisions[i].Path < r.Decisions[j].Path
	})

	if exp := cfg.Tracker.Export; exp != "" {
		data, err := r.Repo.ReadFile(exp, 0)
		switch {
		case err == nil:
			var fs []diag.Finding
			r.Export, fs = tracker.Parse(exp, cfg.Tracker.Format, data)
			r.Findings = append(r.Findings, fs...)
		case errors.Is(err, fs.ErrNotExist):
			// Reported by the tracker rule only if an id needs resolving.
		default:
			return fmt.Errorf("tracker export: read %s: %w", exp, describe(err))
		}
	}
	return nil
}

// registerOptions turns the inline configuration into the register
// parser's status rules.
func registerOptions(cfg config.Config) register.RegisterOptions {
	var o register.RegisterOptions
	if cfg.Inline == nil {
		return o
	}
	o.Default = cfg.Inline.Status
	for _, m := range cfg.Inline.Markers {
		// Validated when the configuration was loaded.
		o.Markers = append(o.Markers, register.StatusMarker{Pattern: regexp.MustCompile(m.Pattern), Status: m.Status})
	}
	return o
}

// addInline makes a decision of every register row that has no decision
// file (D35): its claims come from the claims file <claims>/D<n>.md when
// there is one; its id, title and status come from the row.
func (r *Result) addInline() {
	has := map[string]bool{}
	for _, d := range r.Decisions {
		has[d.FileID] = true
	}
	dir := r.Config.ClaimsDir()
	seen := map[string]bool{}
	for _, row := range r.Register.Rows {
		if has[row.ID] || seen[row.ID] {
			continue
		}
		seen[row.ID] = true
		f := path.Join(dir, row.ID+".md")
		var d *register.Decision
		if r.Repo.Has(f) {
			data, err := r.Repo.ReadFile(f, maxMarkdown)
			if err != nil {
				r.errorf(token.Position{Filename: f, Line: 1, Column: 1}, register.RuleParse, "cannot read claims file: %v", describe(err))
				continue
			}
			d = register.ParseClaims(f, row.ID, data)
			r.Findings = append(r.Findings, d.Findings...)
		} else {
			d = &register.Decision{Path: r.Register.Path, FileID: row.ID, ID: row.ID, Inline: true, Parsed: true, Keys: map[string]token.Position{}}
		}
		d.Status = row.Status
		if d.Title == "" {
			d.Title = row.Title
		}
		r.Decisions = append(r.Decisions, d)
	}
	// A claims file whose id has no register row is reported, not ignored.
	prefix := strings.TrimSuffix(path.Clean(dir), "/") + "/"
	for _, f := range r.Repo.Files {
		if !strings.HasPrefix(f, prefix) || strings.Contains(f[len(prefix):], "/") || !strings.HasSuffix(f, ".md") {
			continue
		}
		id := strings.TrimSuffix(f[len(prefix):], ".md")
		if register.IDNumber(id) == 0 {
			continue
		}
		switch {
		case seen[id]:
		case has[id]:
			r.errorf(token.Position{Filename: f, Line: 1, Column: 1}, register.RuleRegister, "%s has claims in %s but also a decision file: move them into its Confirmation section", id, f)
		default:
			r.errorf(token.Position{Filename: f, Line: 1, Column: 1}, register.RuleRegister, "%s has claims in %s but no register row: add a %s row to %s", id, f, id, r.Register.Path)
		}
	}
}

// byID indexes decisions by their file id; duplicates keep the first.
func (r *Result) byID() map[string]*register.Decision {
	m := map[string]*register.Decision{}
	for _, d := range r.Decisions {
		if d.FileID != "" {
			if _, ok := m[d.FileID]; !ok {
				m[d.FileID] = d
			}
		}
	}
	return m
}

// maxN is the highest decision id in the register.
// addDecision reads one decision file with parse and records it and its
// findings; an unreadable file is a finding at its first line.
func (r *Result) addDecision(f, what string, parse func(path string, src []byte) *register.Decision) {
	data, err := r.Repo.ReadFile(f, maxMarkdown)
	if err != nil {
		r.errorf(token.Position{Filename: f, Line: 1, Column: 1}, register.RuleParse, "cannot read %s: %v", what, describe(err))
		return
	}
	d := parse(f, data)
	r.Decisions = append(r.Decisions, d)
	r.Findings = append(r.Findings, d.Findings...)
}

func (r *Result) maxN() int {
	n := 0
	for _, row := range r.Register.Rows {
		if row.N > n {
			n = row.N
		}
	}
	return n
}

func (r *Result) registerRules() {
	reg := r.Register
	files := map[string][]*register.Decision{}
	for _, d := range r.Decisions {
		files[d.FileID] = append(files[d.FileID], d)
	}
	rows := map[string]register.Row{}
	for _, row := range reg.Rows {
		if prev, dup := rows[row.ID]; dup {
			r.errorf(row.Pos, register.RuleRegister, "%s appears twice in the register (first at line %d): ids are unique", row.ID, prev.Pos.Line)
			continue
		}
		rows[row.ID] = row
		if row.Status != "" && !register.ValidStatus(row.Status) {
			r.errorf(row.StatusPos, register.RuleStatus, "%s: status %q in the register is not one of %s", row.ID, row.Status, strings.Join(register.Statuses, ", "))
		}
		ds := files[row.ID]
		if len(ds) > 0 && ds[0].Inline {
			continue // the row is the decision (D35)
		}
		if len(ds) == 0 {
			r.errorf(row.Pos, register.RuleRegister, "%s has no decision file: create %s/%s-<slug>.md", row.ID, r.Config.Decisions, row.ID)
			continue
		}
		d := ds[0]
		if row.Link != "" && !isExternal(row.Link) {
			target := path.Clean(path.Join(path.Dir(reg.Path), strings.SplitN(row.Link, "#", 2)[0]))
			if target != d.Path {
				r.errorf(row.LinkPos, register.RuleRegister, "%s links to %s, but its decision file is %s", row.ID, target, d.Path)
			}
		}
		if reg.HasStatus && d.Parsed && d.Status != "" && row.Status != d.Status {
			r.errorf(row.StatusPos, register.RuleRegister, "%s is %q in the register but %q in %s: make them agree", row.ID, row.Status, d.Status, d.Path)
		}
	}
	for id, ds := range files {
		if len(ds) > 1 {
			for _, d := range ds {
				r.errorf(token.Position{Filename: d.Path, Line: 1, Column: 1}, register.RuleRegister, "%d files claim %s: each decision has exactly one file", len(ds), id)
			}
		}
		if _, ok := rows[id]; !ok {
			for _, d := range ds {
				r.errorf(token.Position{Filename: d.Path, Line: 1, Column: 1}, register.RuleRegister, "%s is not in the register %s: add a row for it", id, reg.Path)
			}
		}
	}
	byID := r.byID()
	for _, d := range r.Decisions {
		if r.Config.RequireClaims && d.Parsed && d.Status == "accepted" && len(d.Claims) == 0 {
			where := d.Path
			if d.Inline && d.Path == reg.Path {
				where = path.Join(r.Config.ClaimsDir(), d.FileID+".md")
			}
			r.errorf(token.Position{Filename: d.Path, Line: 1, Column: 1}, register.RuleRegister,
				"%s is accepted but carries no claims (require_claims is set): write its Confirmation table in %s", d.FileID, where)
		}
		if !d.Parsed || d.Inline {
			continue
		}
		if d.ID != "" && register.IDNumber(d.ID) != 0 && d.ID != d.FileID {
			r.errorf(d.KeyPos("id"), register.RuleRegister, "front matter id %s does not match the file name's %s", d.ID, d.FileID)
		}
		if d.Status != "" && !register.ValidStatus(d.Status) {
			r.errorf(d.KeyPos("status"), register.RuleStatus, "status %q is not one of %s", d.Status, strings.Join(register.Statuses, ", "))
		}
		if d.Status == "superseded" && len(d.SupersededBy) == 0 {
			r.errorf(d.KeyPos("status"), register.RuleStatus, "%s is superseded but names no successor: add superseded-by: [D<n>]", d.FileID)
		}
		for _, ref := range d.Supersedes {
			t, ok := byID[ref.ID]
			if !ok {
				r.errorf(d.KeyPos("supersedes"), register.RuleStatus, "%s supersedes %s, which has no decision file", d.FileID, ref)
				continue
			}
			if !t.Parsed {
				continue
			}
			if !hasRef(t.SupersededBy, d.FileID) {
				r.errorf(t.KeyPos("superseded-by"), register.RuleStatus, "%s supersedes %s, so %s must list %s in superseded-by", d.FileID, ref, t.FileID, d.FileID)
			}
			if ref.Clause == "" && t.Status != "superseded" && t.Status != "deprecated" && d.Status == "accepted" {
				r.errorf(t.KeyPos("status"), register.RuleStatus, "%s is superseded whole by %s: set status: superseded (or name a clause, %s(n), to supersede part of it)", t.FileID, d.FileID, t.FileID)
			}
		}
		for _, ref := range d.SupersededBy {
			t, ok := byID[ref.ID]
			if !ok {
				r.errorf(d.KeyPos("superseded-by"), register.RuleStatus, "%s is superseded by %s, which has no decision file", d.FileID, ref)
				continue
			}
			if t.Parsed && !hasRef(t.Supersedes, d.FileID) {
				r.errorf(t.KeyPos("supersedes"), register.RuleStatus, "%s lists %s in superseded-by, so %s must list %s in supersedes", d.FileID, ref, t.FileID, d.FileID)
			}
		}
	}
}

func hasRef(refs []register.Ref, id string) bool {
	for _, r := range refs {
		if r.ID == id {
			return true
		}
	}
	return false
}

func isExternal(link string) bool {
	return strings.Contains(link, "://") || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "mailto:")
}
