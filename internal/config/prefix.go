package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/claimslint/claimslint/internal/register"
	"gopkg.in/yaml.v2"
)

// PrefixEdit is the change to .claimslint.yml that adds a tracker prefix
// to tracker.prefixes (D74): docket init --prefix X prints it when the
// file does not name X, and applies it with --write-config.
type PrefixEdit struct {
	// Out is the whole file after the edit.
	Out []byte
	// Line is the 1-based line of the file the edit replaces, or after
	// which it inserts (0: at the top; past the end: appended).
	Line int
	// Old are the lines replaced (none for an insertion); New the lines
	// written in their place.
	Old, New []string
	// Append is set when the lines are added at the end of the file.
	Append bool
	// Prefixes is tracker.prefixes after the edit.
	Prefixes []string
}

// ErrCannotEdit says the file's layout is not one AddPrefix edits line by
// line (a flow mapping, an anchor, a second document...): the edit is for
// a person to make.
var ErrCannotEdit = errors.New("cannot edit this layout of tracker.prefixes line by line")

var (
	trackerKeyRE  = register.LazyRE(`^tracker:[ \t]*(#.*)?$`)
	prefixesKeyRE = register.LazyRE(`^([ \t]+)prefixes:[ \t]*(.*)$`)
	topLevelRE    = register.LazyRE(`^[^ \t#\r]`)
	blockItemRE   = register.LazyRE(`^([ \t]+)-[ \t]`)
)

// AddPrefix returns the edit of the configuration data (the bytes of
// .claimslint.yml, which must parse) that adds prefix to tracker.prefixes,
// keeping every other byte: the flow list [dk] becomes [dk, cli], a block
// list gets an item, a tracker: block without prefixes gets
// prefixes: [dk, cli] (the default it had, and the new one), a file
// without tracker: gets the block at its end. The result is parsed again,
// and it must differ from data's configuration in tracker.prefixes alone,
// by prefix at the end; otherwise the error is ErrCannotEdit and nothing
// is to be written. A prefix already listed is an error too.
func AddPrefix(data []byte, prefix string) (PrefixEdit, error) {
	before, err := Parse(data, Default())
	if err != nil {
		return PrefixEdit{}, err
	}
	if slices.Contains(before.Tracker.Prefixes, prefix) {
		return PrefixEdit{}, fmt.Errorf("tracker.prefixes already lists %s", prefix)
	}
	if strings.ContainsAny(prefix, " -\t/,[]{}#:'\"\r\n") || prefix == "" {
		return PrefixEdit{}, fmt.Errorf("tracker.prefixes: %q is not a prefix (letters and digits, no '-')", prefix)
	}
	want := append(slices.Clone(before.Tracker.Prefixes), prefix)
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	eol := "\n"
	if len(lines) > 0 && strings.HasSuffix(lines[0], "\r\n") {
		eol = "\r\n"
	}
	e := PrefixEdit{Prefixes: want}
	tracker := -1
	for i, l := range lines {
		if trackerKeyRE().MatchString(body(l)) {
			tracker = i
			break
		}
	}
	if tracker < 0 {
		// No tracker: key (the defaults): append the block.
		add := []string{"tracker:", "  prefixes: " + flow(want)}
		out := strings.Join(lines, "")
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += eol
		}
		out += strings.Join(add, eol) + eol
		e.Out, e.Line, e.New, e.Append = []byte(out), len(lines)+1, add, true
	} else if err := (prefixEditor{lines: lines, eol: eol, want: want, item: yamlItem(prefix)}).inTracker(&e, tracker); err != nil {
		return PrefixEdit{}, err
	}
	after, err := Parse(e.Out, Default())
	if err != nil || !reflect.DeepEqual(after.Tracker.Prefixes, want) {
		return PrefixEdit{}, ErrCannotEdit
	}
	after.Tracker.Prefixes = before.Tracker.Prefixes
	if !reflect.DeepEqual(after, before) {
		return PrefixEdit{}, ErrCannotEdit
	}
	return e, nil
}

// body is a line without its line ending.
func body(l string) string { return strings.TrimRight(l, "\r\n") }

// prefixEditor edits the lines of a configuration, which end in eol, to
// list want in tracker.prefixes; item is the prefix added, as YAML.
type prefixEditor struct {
	lines     []string
	eol, item string
	want      []string
}

// inTracker makes the edit inside the tracker: block, which opens on
// line tracker: a prefixes: key added, a flow list or a block list grown.
func (pe prefixEditor) inTracker(e *PrefixEdit, tracker int) error {
	lines := pe.lines
	end := len(lines)
	for j := tracker + 1; j < len(lines); j++ {
		if topLevelRE().MatchString(lines[j]) {
			end = j
			break
		}
	}
	key := -1
	var m []string
	for j := tracker + 1; j < end; j++ {
		if m = prefixesKeyRE().FindStringSubmatch(body(lines[j])); m != nil {
			key = j
			break
		}
	}
	switch {
	case key < 0:
		pe.addKey(e, tracker, end)
	case strings.HasPrefix(m[2], "["):
		return pe.addFlow(e, key, m)
	case strings.TrimSpace(m[2]) == "" || strings.HasPrefix(strings.TrimSpace(m[2]), "#"):
		return pe.addBlock(e, key, end, m)
	default:
		return ErrCannotEdit
	}
	return nil
}

// addKey adds prefixes: to the tracker: block on line tracker (its lines
// up to end), indented as the block's first key.
func (pe prefixEditor) addKey(e *PrefixEdit, tracker, end int) {
	lines := pe.lines
	indent := "  "
	for j := tracker + 1; j < end; j++ {
		if b := body(lines[j]); strings.TrimSpace(b) != "" && !strings.HasPrefix(strings.TrimSpace(b), "#") {
			indent = b[:len(b)-len(strings.TrimLeft(b, " \t"))]
			break
		}
	}
	add := indent + "prefixes: " + flow(pe.want)
	e.Line, e.New = tracker+1, []string{add}
	e.Out = splice(lines, tracker+1, tracker+1, add+pe.eol)
}

// addFlow grows a flow list on the key's line (key, m its match): [dk]
// or [dk, ub] # comment.
func (pe prefixEditor) addFlow(e *PrefixEdit, key int, m []string) error {
	lines := pe.lines
	closing := strings.IndexByte(m[2], ']')
	if closing < 0 {
		return ErrCannotEdit
	}
	inner := strings.TrimSpace(m[2][1:closing])
	list := "[" + pe.item + "]"
	if inner != "" {
		list = "[" + m[2][1:closing] + ", " + pe.item + "]"
	}
	old := body(lines[key])
	repl := m[1] + "prefixes: " + list + m[2][closing+1:]
	e.Line, e.Old, e.New = key+1, []string{old}, []string{repl}
	e.Out = splice(lines, key, key+1, repl+lines[key][len(old):])
	return nil
}

// addBlock grows a block list: the items follow the key (key, m its
// match), one per line, up to end.
func (pe prefixEditor) addBlock(e *PrefixEdit, key, end int, m []string) error {
	lines := pe.lines
	last, indent := -1, ""
	for j := key + 1; j < end; j++ {
		b := body(lines[j])
		if im := blockItemRE().FindStringSubmatch(b); im != nil && len(im[1]) > len(m[1]) {
			last, indent = j, im[1]
			continue
		}
		if strings.TrimSpace(b) == "" || strings.HasPrefix(strings.TrimSpace(b), "#") {
			continue
		}
		break
	}
	if last < 0 {
		return ErrCannotEdit
	}
	add := indent + "- " + pe.item
	e.Line, e.New = last+1, []string{add}
	e.Out = splice(lines, last+1, last+1, add+pe.eol)
	return nil
}

// splice returns lines with lines[from:to] replaced by repl, joined.
func splice(lines []string, from, to int, repl string) []byte {
	var b bytes.Buffer
	for _, l := range lines[:from] {
		b.WriteString(l)
	}
	if from > 0 && !strings.HasSuffix(lines[from-1], "\n") {
		b.WriteString("\n") // the last line had no newline: end it first
	}
	b.WriteString(repl)
	for _, l := range lines[to:] {
		b.WriteString(l)
	}
	return b.Bytes()
}

// flow writes prefixes as a YAML flow list.
func flow(prefixes []string) string {
	items := make([]string, len(prefixes))
	for i, p := range prefixes {
		items[i] = yamlItem(p)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// yamlItem is p as a YAML list item that reads back as the string p: a
// word YAML would read as something else (no, on, null, 1e3) is quoted.
func yamlItem(p string) string {
	var got []string
	if err := yaml.Unmarshal([]byte("["+p+"]"), &got); err == nil && len(got) == 1 && got[0] == p {
		var raw []any
		if yaml.Unmarshal([]byte("["+p+"]"), &raw) == nil && len(raw) == 1 {
			if s, ok := raw[0].(string); ok && s == p {
				return p
			}
		}
	}
	return `"` + p + `"`
}

// Write replaces dir/.claimslint.yml with data, keeping its permissions:
// the bytes go to a temporary file beside it, renamed over it, so a reader
// sees the old file or the new one. Only a regular file is replaced (a
// link is an edit for a person), and only through os.Root.
func Write(dir string, data []byte) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("write %s: %w", FileName, err)
	}
	defer root.Close()
	st, err := root.Lstat(FileName)
	if err != nil {
		return fmt.Errorf("write %s: %w", FileName, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("write %s: not a regular file (a link?): edit it by hand", FileName)
	}
	tmp := FileName + ".docket-tmp"
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm())
	if err != nil {
		return fmt.Errorf("write %s: %w", FileName, err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("write %s: %w", FileName, err)
	}
	if err := root.Rename(tmp, FileName); err != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("write %s: %w", FileName, err)
	}
	return nil
}
