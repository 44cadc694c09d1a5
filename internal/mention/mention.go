// Package mention finds tracker ids where the register mentions them
// (D36): in the text of Markdown and HTML files outside fenced examples,
// and in the comments of code files. The snapshot says which files are
// mention sites and which byte ranges of them are not text (the pattern
// cells of claim tables); this package says what an id looks like, which
// stand for no issue, and finds them.
package mention

import (
	"bytes"
	"go/token"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
	"github.com/claimslint/claimslint/internal/trackerformat"
)

// Mention is one tracker id found in the register corpus.
type Mention struct {
	ID  string
	Pos token.Position
	// Placeholder is set for ids such as dk-TBD that stand for no issue.
	Placeholder bool
}

var (
	base36RE      = register.LazyRE(`^[0-9a-z]+$`)
	placeholderRE = register.LazyRE(`(?i)^(tbd|tba|todo|xxx+|x+|n/?a|none|unknown|new|\?+|_+|0+)$`)
)

// The two forms of Pattern: the github format's, and the prefixed one's
// around the quoted prefixes (the matcher reads the prefixes back).
const (
	numberedPattern = `(?:^|[^\w&/#])(#)([0-9]+)\b`
	prefixedOpen    = `\b(`
	prefixedClose   = `)-([A-Za-z0-9]+(?:\.[0-9]+)*|\?+|_+)`
)

// Pattern returns the regular expression that finds tracker ids of the
// configured prefixes in prose; the last group is the id's suffix.
func Pattern(cfg config.Config) *regexp.Regexp {
	if trackerformat.IsNumbered(cfg.Tracker.Format) {
		return regexp.MustCompile(numberedPattern)
	}
	quoted := make([]string, len(cfg.Tracker.Prefixes))
	for i, p := range cfg.Tracker.Prefixes {
		quoted[i] = regexp.QuoteMeta(p)
	}
	// A child id carries its parents' path: ub-lp9.25, ub-lp9.7.1 (D36).
	return regexp.MustCompile(prefixedOpen + strings.Join(quoted, "|") + prefixedClose)
}

// IsPlaceholder reports whether the suffix of a tracker id (after
// "<prefix>-") stands for no issue, like TBD or XXX. A hierarchical
// suffix (lp9.25) is judged by its root (lp9).
func IsPlaceholder(suffix string) bool {
	root, _, _ := strings.Cut(suffix, ".")
	return placeholderRE().MatchString(root) || !base36RE().MatchString(root)
}

// Comments are the comment regions of a code file: the only mention sites
// in it (D36).
type Comments []codeline.Region

// In reports whether [from, to) lies inside one comment.
func (cs Comments) In(from, to int) bool {
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End > from })
	return i < len(cs) && cs[i].Start <= from && to <= cs[i].End
}

// MaskFences blanks fenced code blocks, which hold examples rather than
// references. It walks the lines in place: splitting a 16 MiB file into
// line strings cost a copy of it and a slice header per line (D70).
func MaskFences(src []byte) []byte {
	out := append([]byte(nil), src...)
	var fence []byte
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		start := off
		off += end + 1
		t := bytes.TrimSpace(src[start : start+end])
		if fence == nil {
			if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
				fence = t[:3]
				blankRange(out, start, min(off, len(src)))
			}
			continue
		}
		blankRange(out, start, min(off, len(src)))
		if bytes.HasPrefix(t, fence) && len(bytes.Trim(t, string(fence[:1]))) == 0 {
			fence = nil
		}
	}
	return out
}

func blankRange(b []byte, from, to int) {
	for i := from; i < to; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}

// Site prepares the file f as a mention site: a Markdown or HTML file is
// all text but its fences (code nil), a code file only its comments (text
// is the file, code its comments, never nil). A file that is not UTF-8
// text is no mention site: ok false.
func Site(f string, data []byte) (text []byte, code Comments, ok bool) {
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 || !utf8.Valid(data) {
		return nil, nil, false
	}
	if register.IsProse(f) {
		return MaskFences(data), nil, true
	}
	var r codeline.Regions
	codeline.Scan(f, data, &r)
	cs := Comments{}
	for _, sp := range r.Spans {
		if sp.Kind == codeline.Comment {
			cs = append(cs, sp)
		}
	}
	return data, cs, true
}

// Scanner finds the ids of one pattern (Pattern's) in file after file,
// remembering which suffixes are placeholders.
type Scanner struct {
	ids          idMatcher
	placeholders map[string]bool
}

// NewScanner returns a Scanner of re, a pattern of Pattern for the
// configured prefixes, the longest of them longest bytes.
func NewScanner(re *regexp.Regexp, longest int) *Scanner {
	return &Scanner{ids: newIDMatcher(re, longest+8, idWindow), placeholders: map[string]bool{}}
}

// Scan yields every id in text (a mention site's, as Site prepares it),
// but those covered reports are not text and, in a code file (code not
// nil), those outside comments. It returns false when yield asked to
// stop. The ids are found one at a time (idMatcher) and each is yielded
// as found, so a file of millions of ids is never held as a list of them
// and the run's budget is asked between any two (D90); halt (when not
// nil) is asked too, with the offset reached, between two windows of the
// search, so a text of many megabytes without an id is not one step the
// budget cannot interrupt: Scan returns false when it says so.
func (sc *Scanner) Scan(text []byte, lines *register.Lines, code Comments, covered func(from, to int) bool, halt func(at int) bool, yield func(Mention) bool) bool {
	halted := false
	var stop func(int) bool
	if halt != nil {
		stop = func(at int) bool { halted = halt(at); return halted }
	}
	for m := range sc.ids.all(text, stop) {
		if covered(m[2], m[1]) {
			continue
		}
		if code != nil && !code.In(m[2], m[1]) {
			continue
		}
		if !yield(sc.mention(text, m, lines)) {
			return false
		}
	}
	return !halted
}

// mention is the id match m found in text.
func (sc *Scanner) mention(text []byte, m []int, lines *register.Lines) Mention {
	prefix := string(text[m[2]:m[3]])
	suffix := string(text[m[4]:m[5]])
	ph, known := sc.placeholders[suffix]
	if !known {
		ph = prefix != "#" && IsPlaceholder(suffix)
		if len(sc.placeholders) < 4096 { // a file that repeats an id asks once
			sc.placeholders[suffix] = ph
		}
	}
	return Mention{ID: id(prefix, suffix), Pos: lines.Pos(m[2]), Placeholder: ph}
}

// id is the id of prefix and suffix: prefix-suffix, or #suffix for the
// github format.
func id(prefix, suffix string) string {
	if prefix == "#" {
		return "#" + suffix
	}
	return prefix + "-" + suffix
}

// InFile returns the tracker ids re (Pattern's) finds where a mentions:
// glob would read them in the file rel: the text of a Markdown or HTML
// file outside fences, the comments of a code file (D36). init --adopt
// reads it to infer mentions: (D65).
func InFile(rel string, data []byte, re *regexp.Regexp) []Mention {
	text, code, ok := Site(rel, data)
	if !ok {
		return nil
	}
	lines := register.NewLines(rel, data)
	var out []Mention
	for _, m := range re.FindAllSubmatchIndex(text, -1) {
		if code != nil && !code.In(m[2], m[1]) {
			continue
		}
		suffix := string(text[m[4]:m[5]])
		prefix := string(text[m[2]:m[3]])
		out = append(out, Mention{ID: id(prefix, suffix), Pos: lines.Pos(m[2]), Placeholder: prefix != "#" && IsPlaceholder(suffix)})
	}
	return out
}
