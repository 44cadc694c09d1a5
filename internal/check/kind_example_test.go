package check

import (
	"fmt"
	"go/token"
	"strings"
	"testing"

	"github.com/claimslint/claimslint/internal/snapshot"
)

// nonemptyKind is a fifth claim kind, written as an example: every file of
// Path exists and is not empty. It is this one type and its registration;
// nothing else in the engine, prove, --base, audit or list changes.
type nonemptyKind struct{}

func (nonemptyKind) Name() string { return "nonempty" }

func (nonemptyKind) Doc() string { return "every file matched by Path has at least one byte." }

func (nonemptyKind) Prepare(c *claim) bool {
	if c.c.Path == "" {
		c.malformed(c.c.Pos, "%s: a nonempty claim needs Path", c.name())
		return false
	}
	return c.prepareFiles()
}

func (nonemptyKind) Evaluate(c *claim) {
	if c.noFiles() {
		return
	}
	for _, f := range c.files {
		src, err := c.read(f, MaxFileSize)
		switch {
		case err != nil:
			c.fail(token.Position{Filename: f, Line: 1, Column: 1}, "%s cannot be read: %v", f, err)
		case len(src) == 0:
			c.fail(token.Position{Filename: f, Line: 1, Column: 1}, "%s is empty", f)
		default:
			c.hold(f)
		}
	}
}

func (nonemptyKind) ProveDoc() string { return "each file of Path is emptied." }

func (nonemptyKind) Mutants(c *claim) ([]mutant, bool) {
	var ms []mutant
	for _, f := range c.where {
		ms = append(ms, mutant{file: f, desc: fmt.Sprintf("%s is emptied", f), src: []byte{}})
	}
	return ms, true
}

func TestFifthKindIsOneFile(t *testing.T) {
	t.Cleanup(addKind("tracker", nonemptyKind{}))
	const dir = "testdata/kinds/nonempty"

	snap, err := snapshot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunRules(snap, Options{Dir: dir, Prove: true}, Rules...)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%s:%d: %s (%s)", f.Pos.Filename, f.Pos.Line, f.Message, f.Tag()))
	}
	want := []string{
		"docs/decisions/D1-notes.md:11: D1 C3: a nonempty claim needs Path (CL006)",
		"src/empty.md:1: src/empty.md is empty (D1/C2)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// list: the state of each claim, through the kind.
	states := map[string]string{}
	for _, st := range res.Claims {
		states[st.Claim] = st.State + " " + strings.Join(st.Where, ",")
	}
	if states["C1"] != "ok src/a.txt,src/b.txt" || !strings.HasPrefix(states["C2"], "failed") {
		t.Errorf("claim states %v", states)
	}
	// prove: C1 is mutated through the kind's Mutants, and each mutant
	// kills it.
	if len(res.Proofs) != 1 || res.Proofs[0].Claim != "C1" || res.Proofs[0].Mutants != 2 || res.Proofs[0].Killed != 2 {
		t.Errorf("proofs %+v, want C1 with 2 mutants, 2 killed", res.Proofs)
	}
	// explain: the kind documents itself in CL007 and in the messages.
	doc, _ := Explain("CL007", Rules)
	if !strings.Contains(doc, "nonempty  every file matched by Path has at least one byte.") {
		t.Errorf("CL007 does not document the kind:\n%s", doc)
	}
	if doc, _ := Explain("CL009", Rules); !strings.Contains(doc, "nonempty  each file of Path is emptied.") || !strings.Contains(strings.Join(strings.Fields(doc), " "), "allow, exec and tracker claims rest on no line") {
		t.Errorf("CL009 does not derive its kinds from Kinds:\n%s", doc)
	}
	if got := kindList(); !strings.HasPrefix(got, "present, anchored, anchored-every, absent, allow, exec, tracker, nonempty, count, before, first") {
		t.Errorf("kind list %q", got)
	}
}

func TestUnknownKindsListTheRegistry(t *testing.T) {
	// The kinds of Kinds, in its order; a kind added after agree (addkind.go)
	// ends the list.
	names := KindNames()
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if got := kindList(); got != want || !strings.HasPrefix(got, "present, anchored, anchored-every, absent, allow, exec, tracker, count, before, first") {
		t.Errorf("kind list %q, want %q", got, want)
	}
}
