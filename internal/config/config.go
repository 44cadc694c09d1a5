// Package config loads .claimslint.yml, the optional per-repository settings
// of claimslint, and fills in the documented defaults.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/relimit"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/internal/workflow"
	"gopkg.in/yaml.v2"
)

// FileName is the configuration file looked up at the repository root.
const FileName = ".claimslint.yml"

// Tracker says where the tracker export lives and how to read it.
type Tracker struct {
	Export   string   `yaml:"export"`
	Format   string   `yaml:"format"`
	Prefixes []string `yaml:"prefixes"`
	// Workflow maps statuses outside docket's set onto docket's classes
	// (open, active, blocked, deferred, closed), over
	// workflow.DefaultWorkflow (D57): docket's ready and list, docket mcp
	// and claimslint's tracker reader all read it.
	Workflow map[string]string `yaml:"workflow"`
	// Classes is Workflow parsed over workflow.DefaultWorkflow; Load and
	// Parse fill it.
	Classes workflow.Workflow `yaml:"-"`
}

// Config is the parsed .claimslint.yml. All paths are repository-relative
// and use '/'.
type Config struct {
	Register  string `yaml:"register"`
	Decisions string `yaml:"decisions"`
	// Adopt lists the folders of existing records read in place (D41,
	// D72): a directory name (NNNN-title.md, YYYYMMDD-title.md in it), or
	// a list of folders each with its pattern, id rule and status source.
	// The register row that links a record gives its decision id.
	Adopt Adopt `yaml:"adopt"`
	// Statuses maps the status words of adopted records to the five
	// statuses (D42). Keys are lower case; DefaultStatuses fills in the
	// common ones, and a key here overrides its default.
	Statuses   map[string]string `yaml:"statuses"`
	Tracker    Tracker           `yaml:"tracker"`
	RangeSites []string          `yaml:"range_sites"`
	Scripts    string            `yaml:"scripts"`
	Workflows  string            `yaml:"workflows"`
	// Inline, when set, lets register rows stand without a decision file
	// (D35).
	Inline *Inline `yaml:"inline"`
	// RequireClaims, when false, lets an accepted decision carry no
	// claims (D35); unset means true (D43).
	RequireClaims *bool `yaml:"require_claims"`
	// Mentions are globs of files whose tracker ids CL004 checks too: in
	// the comments of code files, in the text of Markdown files (D36).
	Mentions []string `yaml:"mentions"`
	// FrozenRanges are older live ranges kept on purpose at a site (D37).
	FrozenRanges []Frozen `yaml:"frozen_ranges"`
	// Retired acknowledges what a change retires without a successor
	// (D87): check --base lets an accepted decision, a claim row or a
	// narrowed setting go only when an entry new in the change names it.
	Retired []Retirement `yaml:"retired"`
}

// Retirement is one entry of retired:, written in the change that
// retires what it names and reviewed with it.
type Retirement struct {
	// ID names what retires: a decision (D7), a claim row (D7/C2) or a
	// setting (register, tracker.prefixes; see SettingKeys).
	ID string `yaml:"id"`
	// Reason says why, for the reviewer; it must not be empty.
	Reason string `yaml:"reason"`
}

// Adopt is the adopt: setting: the folders of an adopted collection.
type Adopt []register.Scheme

// UnmarshalYAML reads adopt: as one directory name (the form init wrote
// before D72) or as a list of folders.
func (a *Adopt) UnmarshalYAML(unmarshal func(any) error) error {
	var dir string
	if err := unmarshal(&dir); err == nil {
		*a = nil
		if dir != "" {
			*a = Adopt{{Dir: dir}}
		}
		return nil
	}
	var list []register.Scheme
	if err := unmarshal(&list); err != nil {
		return err
	}
	*a = list
	return nil
}

// Dirs lists the adopted folders.
func (a Adopt) Dirs() []string {
	var out []string
	for _, s := range a {
		out = append(out, s.Dir)
	}
	return out
}

// Inline configures a register whose rows may stand without a file.
type Inline struct {
	// Claims is the directory of claims files: Claims/D47.md holds D47's
	// Confirmation table when D47 has no decision file.
	Claims string `yaml:"claims"`
	// Status is the status of a row that has no Status column and no
	// marker; empty means such a row is a finding.
	Status string `yaml:"status"`
	// Markers set a row's status from its text: the first pattern that
	// matches the row wins over Status.
	Markers []Marker `yaml:"markers"`
}

// Marker maps a pattern in a register row's text to a status.
type Marker struct {
	Pattern string `yaml:"pattern"`
	Status  string `yaml:"status"`
}

// Frozen is a range a site keeps on purpose: the record of an older
// cascade, not a range someone forgot to bump.
type Frozen struct {
	Path  string `yaml:"path"`
	Range string `yaml:"range"`
}

// ClaimsRequired reports whether every accepted decision must carry a
// claim (or say claims: none): true unless require_claims: false.
func (c Config) ClaimsRequired() bool { return c.RequireClaims == nil || *c.RequireClaims }

// DefaultClaimsDir is where claims files live when inline.claims is unset.
const DefaultClaimsDir = "docs/claims"

// ClaimsDir returns the directory of claims files.
func (c Config) ClaimsDir() string {
	if c.Inline != nil && c.Inline.Claims != "" {
		return c.Inline.Claims
	}
	return DefaultClaimsDir
}

// Default returns the settings used when no .claimslint.yml exists; they are
// the ones docs/guide/configuration.md documents.
func Default() Config {
	classes, _ := workflow.DefaultWorkflow.With(nil) // a copy: callers may not share the default
	return Config{
		Register:  "docs/PRD.md",
		Decisions: "docs/decisions",
		Tracker: Tracker{
			Export:   ".knowledge/tracker/issues.jsonl",
			Format:   trackerformat.Docket,
			Prefixes: []string{"dk"},
			Classes:  classes,
		},
		RangeSites: []string{"docs/PRD.md"},
		Scripts:    "checks/**",
		Workflows:  ".github/workflows/*.{yml,yaml}",
		Statuses:   DefaultStatuses(),
	}
}

// DefaultStatuses is the status vocabulary every repository starts with:
// the words adr-tools, MADR, log4brains and hand-written records use for
// the five statuses. "unstated" is a record with no status at all (MADR's
// own 0000 record); "partly superseded" and "amended" keep the decision
// live, since only part of it changed.
func DefaultStatuses() map[string]string {
	m := map[string]string{
		"approved": "accepted", "agreed": "accepted", "adopted": "accepted", "done": "accepted",
		"implemented": "accepted", "decided": "accepted", "active": "accepted",
		"partly superseded": "accepted", "partially superseded": "accepted", "amended": "accepted",
		"pending": "proposed", "in review": "proposed", "under review": "proposed", "draft": "proposed",
		"on hold": "proposed", "open": "proposed", "proposal": "proposed", "suggested": "proposed", "wip": "proposed",
		"in progress": "proposed", "under discussion": "proposed",
		"declined": "rejected", "refused": "rejected", "withdrawn": "rejected", "abandoned": "rejected",
		"obsolete": "deprecated", "retired": "deprecated", "deprecate": "deprecated",
		"replaced": "superseded", "superceded": "superseded",
	}
	addWorld(m) // the words of the world's processes, in nine languages (D97)
	return m
}

// Load reads dir/.claimslint.yml over the defaults. A missing file is not an
// error; an unknown key, a bad value or a path that leaves the repository is,
// and so is a configuration file that is a link out of dir (it is read
// through os.Root, which refuses that).
func Load(dir string) (Config, error) {
	cfg := Default()
	data, err := Read(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return cfg, nil // no file; a missing directory the caller reports
	case err != nil:
		return cfg, err
	}
	return Parse(data, cfg)
}

// Read returns the bytes of dir/.claimslint.yml, read through os.Root (a
// link out of dir is refused) up to MaxSize, and only from a regular
// file; an error wrapping fs.ErrNotExist when there is none.
func Read(dir string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", FileName, err)
	}
	defer root.Close()
	data, err := repo.ReadIn(root, FileName, MaxSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case errors.Is(err, repo.ErrTooLarge):
		return nil, fmt.Errorf("read %s: %w: a configuration is at most %d MiB", FileName, err, MaxSize>>20)
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", FileName, err)
	}
	return data, nil
}

// MaxAdoptFolders bounds adopt:'s list.
const MaxAdoptFolders = 1000

// MaxSize bounds .claimslint.yml: a configuration lists a few settings, and
// one larger than this is refused before it is read (issue 22: a 1 GB file
// was read whole).
const MaxSize = 1 << 20

// yamlError words a decoding error in the configuration's terms, on one
// line: each of yaml's unmarshal errors says what the line holds and what
// belongs there, never a Go type and never the value's own bytes.
func yamlError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return errors.New(strings.Join(strings.Fields(err.Error()), " "))
	}
	var parts []string
	hint := ""
	for _, e := range te.Errors {
		p := yamlProblem(e)
		if strings.Contains(p, "unknown key") {
			hint = " (docs/guide/configuration.md lists the keys)"
		}
		parts = append(parts, p)
	}
	return errors.New(strings.Join(parts, "; ") + hint)
}

var (
	unknownKeyRE = register.LazyRE(`^(line \d+): field (\S+) not found in type (\S+)$`)
	wrongTypeRE  = register.LazyRE(`^(line \d+): cannot unmarshal !!(\w+)(?: .*)? into (\S+)$`)
)

// yamlProblem rewrites one of yaml.v2's unmarshal errors.
func yamlProblem(e string) string {
	if m := unknownKeyRE().FindStringSubmatch(e); m != nil {
		if near := nearest(m[2], knownKeys()[m[3]]); near != "" {
			return fmt.Sprintf("%s: unknown key %q: did you mean %q?", m[1], m[2], near)
		}
		return fmt.Sprintf("%s: unknown key %q", m[1], m[2])
	}
	if m := wrongTypeRE().FindStringSubmatch(e); m != nil {
		return fmt.Sprintf("%s: %s where %s belongs", m[1], yamlKinds[m[2]], goKind(m[3]))
	}
	line, _, _ := strings.Cut(e, ":")
	return line + ": a value of the wrong kind"
}

// knownKeys lists the keys of each mapping of the configuration, by the
// name yaml's errors give its struct, for the did-you-mean of an unknown
// key (D76). It is built at the first unknown key, not when the package is
// initialised: a configuration without one never reads it (D92).
var knownKeys = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || out[t.String()] != nil {
			return
		}
		out[t.String()] = []string{}
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			out[t.String()] = append(out[t.String()], name)
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[Config]())
	return out
})

// nearest returns the key of keys closest to word, when one is within a
// third of word's length in edits (at least one), else "".
func nearest(word string, keys []string) string {
	best, bestD := "", max(1, len(word)/3)+1
	for _, k := range keys {
		if d := editDistance(word, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes; words
// longer than a configuration key are not compared.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return max(len(a), len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var yamlKinds = map[string]string{
	"str": "a string", "int": "a number", "float": "a number", "bool": "true or false",
	"seq": "a list", "map": "a mapping", "null": "nothing", "binary": "binary data", "timestamp": "a date",
}

// goKind names what a Go type of Config holds, as configuration.md does.
func goKind(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	case t == "string":
		return "a string"
	case t == "bool" || t == "*bool":
		return "true or false"
	}
	return "a mapping" // a struct of the configuration (inline:, tracker:, a frozen range)
}

// Parse decodes data over base and validates the result. Keys that are absent
// keep base's values; unknown keys are rejected so a typo is not silently
// ignored.
func Parse(data []byte, base Config) (Config, error) {
	cfg := base
	cfg.Statuses = nil
	if len(bytes.TrimSpace(data)) > 0 {
		if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
			return base, fmt.Errorf("%s: %w", FileName, yamlError(err))
		}
	}
	// statuses: adds to the base vocabulary; it never empties it.
	own := cfg.Statuses
	cfg.Statuses = map[string]string{}
	for k, v := range base.Statuses {
		cfg.Statuses[k] = v
	}
	for k, v := range own {
		key := strings.Join(strings.Fields(strings.ToLower(k)), " ")
		if !validStatus(v) {
			return base, fmt.Errorf("%s: statuses: %q maps to %q: want proposed, accepted, rejected, deprecated or superseded", FileName, k, v)
		}
		if validStatus(key) && key != v {
			return base, fmt.Errorf("%s: statuses: %q is itself a status and cannot mean %q", FileName, k, v)
		}
		cfg.Statuses[key] = v
	}
	if err := cfg.validate(); err != nil {
		return base, fmt.Errorf("%s: %w", FileName, err)
	}
	// tracker.workflow adds to docket's default mapping, like statuses.
	w, err := workflow.DefaultWorkflow.With(cfg.Tracker.Workflow)
	if err != nil {
		return base, fmt.Errorf("%s: %w", FileName, err)
	}
	cfg.Tracker.Classes = w
	return cfg, nil
}

func (c *Config) validate() error {
	if !trackerformat.Known(c.Tracker.Format) {
		return fmt.Errorf("tracker.format %q: want %s", c.Tracker.Format, trackerformat.OrList())
	}
	for _, p := range c.Tracker.Prefixes {
		if p == "" || strings.ContainsAny(p, " -\t/") {
			return fmt.Errorf("tracker.prefixes: %q is not a prefix (letters and digits, no '-')", p)
		}
	}
	if err := checkPath("register", c.Register, true); err != nil {
		return err
	}
	if err := checkPath("decisions", c.Decisions, true); err != nil {
		return err
	}
	if err := c.validateAdopt(); err != nil {
		return err
	}
	if err := checkPath("tracker.export", c.Tracker.Export, false); err != nil {
		return err
	}
	for _, s := range c.RangeSites {
		if err := checkPath("range_sites", s, true); err != nil {
			return err
		}
	}
	if in := c.Inline; in != nil {
		if err := validateInline(in); err != nil {
			return err
		}
	}
	for _, g := range c.Mentions {
		if err := checkPath("mentions", g, true); err != nil {
			return err
		}
	}
	for i, f := range c.FrozenRanges {
		if err := checkPath("frozen_ranges.path", f.Path, true); err != nil {
			return err
		}
		if !frozenRE().MatchString(f.Range) {
			return fmt.Errorf("frozen_ranges[%d].range %q: want a range such as D1..D46", i, f.Range)
		}
	}
	if err := checkPath("scripts", c.Scripts, false); err != nil {
		return err
	}
	if err := validRetired(c.Retired); err != nil {
		return err
	}
	return checkPath("workflows", c.Workflows, false)
}

// checkPath checks the path or glob v of setting key: inside the
// repository, and not empty when required.
func checkPath(key, v string, required bool) error {
	if v == "" {
		if required {
			return fmt.Errorf("%s: must not be empty", key)
		}
		return nil
	}
	if err := InsideRepo(v); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

// validateAdopt checks the adopted folders, each once, and compiles
// their name patterns.
func (c *Config) validateAdopt() error {
	if len(c.Adopt) > MaxAdoptFolders {
		return fmt.Errorf("adopt: %d folders; at most %d", len(c.Adopt), MaxAdoptFolders)
	}
	for i := range c.Adopt {
		key := "adopt"
		if len(c.Adopt) > 1 || c.Adopt[i].Pattern != "" {
			key = fmt.Sprintf("adopt[%d]", i)
		}
		if err := checkPath(key+".dir", c.Adopt[i].Dir, true); err != nil {
			return err
		}
		c.Adopt[i].Dir = path.Clean(c.Adopt[i].Dir)
		if err := c.Adopt[i].Compile(); err != nil {
			return fmt.Errorf("%s.%w", key, err)
		}
		for j := range i {
			if c.Adopt[j].Dir == c.Adopt[i].Dir {
				return fmt.Errorf("%s.dir %q: listed twice; give each folder one entry", key, c.Adopt[i].Dir)
			}
		}
	}
	return nil
}

// validateInline checks inline:, its markers sized before they are
// compiled.
func validateInline(in *Inline) error {
	if err := checkPath("inline.claims", in.Claims, false); err != nil {
		return err
	}
	if in.Status != "" && !validStatus(in.Status) {
		return fmt.Errorf("inline.status %q: want one of %s", in.Status, "proposed, accepted, rejected, deprecated, superseded")
	}
	var account relimit.Run
	for i, m := range in.Markers {
		// Sized before it is compiled: 120 markers of 450,000
		// instructions each took 43 s and 3.5 GB (D90).
		n, exact, err := relimit.Size(m.Pattern, 0)
		if err != nil || m.Pattern == "" {
			return fmt.Errorf("inline.markers[%d].pattern %q: not a regular expression (Go RE2)", i, m.Pattern)
		}
		if msg := relimit.Refusal(n, exact); msg != "" {
			return fmt.Errorf("inline.markers[%d].pattern: %s", i, msg)
		}
		if used := account.Used(); !account.Take(n) {
			return fmt.Errorf("inline.markers[%d].pattern: %s; use fewer markers, or smaller ones", i, relimit.RunRefusal(n, used))
		}
		if _, err := regexp.Compile(m.Pattern); err != nil {
			return fmt.Errorf("inline.markers[%d].pattern %q: not a regular expression (Go RE2)", i, m.Pattern)
		}
		if !validStatus(m.Status) {
			return fmt.Errorf("inline.markers[%d].status %q: want one of %s", i, m.Status, "proposed, accepted, rejected, deprecated, superseded")
		}
	}
	return nil
}

var frozenRE = register.LazyRE(`^D1\.\.D[1-9][0-9]*$`)

func validStatus(s string) bool {
	switch s {
	case "proposed", "accepted", "rejected", "deprecated", "superseded":
		return true
	}
	return false
}

// InsideRepo reports an error when p (a path or glob) is absolute or climbs
// out of the repository root with "..": claims and settings may only name
// files of the repository being checked.
func InsideRepo(p string) error {
	if strings.IndexByte(p, 0) >= 0 {
		return fmt.Errorf("%q holds a NUL byte, which no file name can", p)
	}
	if strings.IndexFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return fmt.Errorf("%q holds a control character (a newline, an ESC): name a file without one", p)
	}
	if strings.HasPrefix(p, "/") || filepath.IsAbs(p) || (len(p) > 1 && p[1] == ':') {
		return fmt.Errorf("%q is absolute; write a path relative to the repository root", p)
	}
	clean := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("%q escapes the repository; write a path below the repository root", p)
	}
	if InGitDir(clean) {
		return fmt.Errorf("%q is inside .git, git's own directory, not a file of the repository", p)
	}
	return nil
}

// InGitDir reports whether the repository path p has a component named
// .git (in any case, as case-insensitive file systems read it): git's own
// files (its config, its objects) are never a register, an export or a
// claim's file, and are never quoted in a message.
func InGitDir(p string) bool {
	for rest := strings.ReplaceAll(p, `\`, "/"); ; { // each segment in turn, none copied (every claim's Path is asked, D92)
		seg, after, more := strings.Cut(rest, "/")
		if strings.EqualFold(seg, ".git") {
			return true
		}
		if !more {
			return false
		}
		rest = after
	}
}
