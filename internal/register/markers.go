package register

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/claimslint/claimslint/internal/decisionid"
)

// MarkerGuess is a status marker read from a register's own words (D65):
// the pattern inline.markers would hold, the status it gives, and the rows
// it matches, each with the words it matched there.
type MarkerGuess struct {
	Pattern string
	Status  string
	Rows    []MarkerHit
}

// MarkerHit is one row a marker matches, and the words it matched.
type MarkerHit struct {
	ID   string
	Said string
	// Clause is set when the row says it of a clause only ("the six-triple
	// clause is SUPERSEDED by D36"): the row stays live (D42), but the
	// marker makes it retired whole.
	Clause bool
}

// markerWords are the words a register shouts a row's status with, and
// the status each gives. Lower-case words are prose, not markers.
var markerWords = []struct{ word, status string }{
	{"SUPERSEDED", "superseded"},
	{"SUPERCEDED", "superseded"},
	{"DEPRECATED", "deprecated"},
	{"REJECTED", "rejected"},
	{"PROPOSED", "proposed"},
}

// byRefRE finds a status word followed by the decision that retired the
// row: SUPERSEDED by D47, REJECTED in favour of **D12**.
var byRefRE = lazyRE(`\b(SUPERSEDED|SUPERCEDED|DEPRECATED|REJECTED|PROPOSED)(\s+)(by|in favou?r of)(\s+)(\*\*|__)?` + decisionid.Pattern + `\b`)

// clauseWords, before a status word in the same sentence, say it is
// about part of a decision: "the six-triple clause is SUPERSEDED by D36".
const clauseWords = `(?i:\b(?:clauses?|partly|partially|part of)\b)[^.;|]*`

var clauseRE = lazyRE(clauseWords + `$`)

// InferMarkers reads the status markers of an inline register from its
// rows' words: a status word followed by a decision id (SUPERSEDED by
// D47), or a status word that opens a cell (| PROPOSED |). Markers match
// a row's text, its cells joined by " | ". A word said only
// of a clause gives no marker: that row stays live. Each guess lists the
// rows it matches, the first marker winning as check applies them.
func InferMarkers(rows []Row) []MarkerGuess {
	forms := markerForms(rows)
	var guesses []MarkerGuess
	for _, w := range markerWords {
		if f := forms[w.word]; f != nil {
			guesses = append(guesses, f.guesses(w.word, w.status)...)
		}
	}
	MatchMarkers(rows, guesses)
	return guesses
}

// markerForm is how the rows write one status word.
type markerForm struct {
	conns    map[string]bool
	spaced   bool // a match with other whitespace than one space
	emphasis bool
	whole    bool // a match said of the whole row
	clause   bool // a match said of a clause
	opens    bool // the word opens a cell
}

// markerForms is how the rows write each status word they use.
func markerForms(rows []Row) map[string]*markerForm {
	forms := map[string]*markerForm{}
	get := func(w string) *markerForm {
		if forms[w] == nil {
			forms[w] = &markerForm{conns: map[string]bool{}}
		}
		return forms[w]
	}
	for _, r := range rows {
		for _, m := range byRefRE().FindAllStringSubmatchIndex(r.Text, -1) {
			f := get(r.Text[m[2]:m[3]])
			f.conns[r.Text[m[6]:m[7]]] = true
			if r.Text[m[4]:m[5]] != " " || r.Text[m[8]:m[9]] != " " {
				f.spaced = true
			}
			if m[10] >= 0 {
				f.emphasis = true
			}
			if ofClause(r.Text, m[0]) {
				f.clause = true
			} else {
				f.whole = true
			}
		}
		for _, c := range strings.Split(r.Text, " | ") {
			c = strings.TrimLeft(c, "*_~ ")
			for _, w := range markerWords {
				if strings.HasPrefix(c, w.word) && (len(c) == len(w.word) || !isWordByte(c[len(w.word)])) {
					get(w.word).opens = true
				}
			}
		}
	}
	return forms
}

// guesses are the markers of the status word written as f, in the order
// check applies them.
func (f *markerForm) guesses(word, status string) []MarkerGuess {
	// A word that opens a cell is the row's status word (| PROPOSED |);
	// in the middle of a sentence it is prose.
	opens := MarkerGuess{Pattern: `\| [*_]*` + word + `\b`, Status: status}
	var guesses []MarkerGuess
	switch {
	case f.whole:
	case f.opens:
		return []MarkerGuess{opens}
	default:
		return nil // said of clauses only: those rows stay live
	}
	pat := f.pattern(word)
	if f.clause {
		// First match wins: a clause said retired keeps its row live
		// (D42), before the marker that retires whole rows.
		guesses = append(guesses, MarkerGuess{Pattern: clauseWords + pat, Status: "accepted"})
	}
	guesses = append(guesses, MarkerGuess{Pattern: pat, Status: status})
	if f.opens {
		guesses = append(guesses, opens)
	}
	return guesses
}

// pattern is the marker of the status word said of whole rows, as f
// writes it: the word, its connectives, the id.
func (f *markerForm) pattern(word string) string {
	sp := " "
	if f.spaced {
		sp = `\s+`
	}
	var conns []string
	for _, c := range []string{"by", "in favour of", "in favor of"} {
		if f.conns[c] {
			conns = append(conns, strings.ReplaceAll(c, " ", sp))
		}
	}
	conn := conns[0]
	if len(conns) > 1 {
		conn = "(?:" + strings.Join(conns, "|") + ")"
	}
	pat := word + sp + conn + sp
	if f.emphasis {
		pat += `(?:\*\*|__)?`
	}
	// The pattern is written into the user's config: D[0-9]+ reads
	// every id of the grammar unanchored (D0, and D4a by its D4),
	// and is the shape configs written before D72 hold.
	pat += "D[0-9]+"
	return pat
}

// MatchMarkers fills each guess's Rows with the rows it matches, the
// first matching guess winning, as the register parser applies markers.
func MatchMarkers(rows []Row, guesses []MarkerGuess) {
	res := make([]*regexp.Regexp, len(guesses))
	for i := range guesses {
		guesses[i].Rows = nil
		res[i] = regexp.MustCompile(guesses[i].Pattern)
	}
	for _, r := range rows {
		for i, re := range res {
			if loc := re.FindStringIndex(r.Text); loc != nil {
				guesses[i].Rows = append(guesses[i].Rows, MarkerHit{ID: r.ID, Said: r.Text[loc[0]:loc[1]], Clause: ofClause(r.Text, loc[0])})
				break
			}
		}
	}
}

// ClauseOnly lists the rows whose words say a status of a clause only, for
// init to say why they get no marker.
func ClauseOnly(rows []Row) []MarkerHit {
	var out []MarkerHit
	for _, r := range rows {
		for _, m := range byRefRE().FindAllStringIndex(r.Text, -1) {
			if ofClause(r.Text, m[0]) {
				out = append(out, MarkerHit{ID: r.ID, Said: r.Text[m[0]:m[1]], Clause: true})
				break
			}
		}
	}
	return out
}

// ofClause reports whether the sentence before off speaks of part of the
// decision: "the six-triple clause is SUPERSEDED by D36", as the clause
// marker InferMarkers writes reads it.
func ofClause(text string, off int) bool {
	return clauseRE().MatchString(text[max(0, off-300):off])
}

// UnreadAdvice is CL001's one finding on a register check cannot read
// (D65): with inline, its rows have no decision files, and the advice is
// init --adopt or the inline: setting, with the markers InferMarkers
// reads; otherwise its table lacks a Status column. cfgFile names
// .claimslint.yml.
func UnreadAdvice(reg *Register, inline bool, claims, cfgFile string) string {
	if !inline {
		return "register table has no Status column: add one so row and file statuses can be compared"
	}
	set := fmt.Sprintf("inline: {claims: %s}", claims)
	what := fmt.Sprintf("none of the %d register rows has a decision file", len(reg.Rows))
	if !reg.HasStatus {
		var ms []string
		for _, g := range InferMarkers(reg.Rows) {
			ms = append(ms, fmt.Sprintf("{pattern: '%s', status: %s}", g.Pattern, g.Status))
		}
		set = "inline: {status: accepted}"
		if len(ms) > 0 {
			set = "inline: {status: accepted, markers: [" + strings.Join(ms, ", ") + "]}"
		}
		what = "no Status column"
	}
	return fmt.Sprintf("%s: this looks like an inline register (%s, no decision files); run claimslint init --adopt, or set %s in %s", what, idStyle(reg.Rows), set, cfgFile)
}

// idStyle names how a register writes its ids: bold ids, code ids, ids.
func idStyle(rows []Row) string {
	style := ""
	for _, r := range rows {
		s := "ids"
		switch {
		case strings.HasPrefix(r.IDCell, "**") || strings.HasPrefix(r.IDCell, "__"):
			s = "bold ids"
		case strings.HasPrefix(r.IDCell, "`"):
			s = "code ids"
		}
		if style != "" && s != style {
			return "ids"
		}
		style = s
	}
	return style
}
