package codeline

import (
	"slices"
	"testing"

	"github.com/claimslint/claimslint/internal/listgen/listgentest"
)

// TestLexersAreGenerated: lexers is what listgen makes of the
// //registry:lexers values (D103); a stale list names go generate.
func TestLexersAreGenerated(t *testing.T) {
	t.Parallel()
	listgentest.Fresh(t, "../..", "internal/codeline")
}

// TestEachFileNameHasOneLexer: no extension or base name is declared by
// two lexers (byExt and byName would keep one of them silently), and an
// extension is declared in lower case, as For looks it up.
func TestEachFileNameHasOneLexer(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, l := range lexers {
		for _, k := range slices.Concat(l.exts, l.names) {
			if other, ok := seen[k]; ok {
				t.Errorf("%s is declared by the lexers %s and %s", k, other, l.name)
			}
			seen[k] = l.name
		}
		for _, e := range l.exts {
			if len(e) < 2 || e[0] != '.' || e != toLower(e) {
				t.Errorf("lexer %s: the extension %q is not .lower", l.name, e)
			}
		}
	}
	if len(seen) != len(byExt)+len(byName) {
		t.Errorf("%d names declared, %d indexed", len(seen), len(byExt)+len(byName))
	}
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// A language's lexer as a contributor adds one: its file, alone (fish's
// comments are shell's, its strings are read by the hash family).
const (
	fishFile = `package codeline

// fishLexer reads the fish shell's scripts.
//
//registry:lexers
var fishLexer = &Lexer{name: "fish", scan: func(s []byte, r *Regions) { scanGeneric(s, r, hashSyntax) }, exts: []string{".fish"}, names: []string{"config.fish"}}
`
	fishProbe = `package codeline

import "testing"

func TestScaffoldedFish(t *testing.T) {
	for _, name := range []string{"conf.d/a.FISH", "config.fish"} {
		if got := Name(name, nil); got != "fish" {
			t.Errorf("Name(%s) = %q, want fish", name, got)
		}
	}
	if got := string(Mask("a.fish", []byte("set x 1 # note\n"))); got != "set x 1       \n" {
		t.Errorf("Mask %q", got)
	}
	if got := Name("a.sh", nil); got != "shell" {
		t.Errorf("a.sh is read by %s", got)
	}
}
`
)

// TestAddingALexerTouchesOneFile adds a language's lexer as one file
// (zz_fish.go) and regenerates lexers over it: the package built with
// both reads .fish files and config.fish with it, comments masked. The
// only other file that changes is the generated list.
func TestAddingALexerTouchesOneFile(t *testing.T) {
	t.Parallel()
	changed := listgentest.AddOne(t, "../..", "internal/codeline", "zz_fish.go", fishFile, fishProbe, "TestScaffoldedFish")
	if want := []string{"internal/codeline/lexers_gen.go"}; !slices.Equal(changed, want) {
		t.Errorf("regenerating changed %v, want %v", changed, want)
	}
}
