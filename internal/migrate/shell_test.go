package migrate

import (
	"os/exec"
	"strings"
	"testing"
)

// funcScript defines functions the ways the seed team's gates do, and
// derives knobs through them.
const funcScript = `#!/bin/sh
set -u
say() { printf 'gate: %s\n' "$*" >&2; }
knob_re() { printf '%s' "$1" | sed 's/\\/\\\\\\/g'; }
twice()
{
  # a body over lines, with a comment holding ' and "
  printf '%s%s' "$1" "$1"
}
nested() { printf '<%s>' "$(twice "$1")"; }
quiet() ( printf 'lost' >&2; printf 'kept' 2>/dev/null )
RANGE_RE='D1\.\.D48'
RANGE_KNOB_RE="$(knob_re "$RANGE_RE")"
BARE=$(knob_re $RANGE_RE)
T=$(twice ab)
N=$(nested q)
Q=$(quiet)
EMPTY=$(twice '')
JOINED=$(printf '%s|' a 'b c' "$RANGE_RE")
OCT=$(printf '\101\t\\\q')
`

func TestFunctionsEvaluateAsShDoes(t *testing.T) {
	s := read(funcScript)
	if s.parseErr != nil {
		t.Fatalf("parse: line %d: %s", s.line(s.parseErr.pos), s.parseErr.msg)
	}
	for name, want := range map[string]string{
		"RANGE_KNOB_RE": `D1\\\.\\\.D48`,
		"BARE":          `D1\\\.\\\.D48`,
		"T":             "abab",
		"N":             "<qq>",
		"Q":             "kept",
		"EMPTY":         "",
		"JOINED":        `a|b c|D1\.\.D48|`,
		"OCT":           "A\t\\\\q",
	} {
		v := s.knobs[name]
		if v.bad != "" || v.text != want {
			t.Errorf("%s = %+v, want %q", name, v, want)
		}
	}
	if _, err := exec.LookPath("sh"); err == nil {
		if git, err := exec.LookPath("git"); err == nil {
			sh, _ := exec.LookPath("sh")
			if n := compareWithSh(t, sh, git, "functions.sh", funcScript); n != 8+1 {
				t.Errorf("compared %d assignments with sh, want 9", n)
			}
		}
	}
}

// TestNotEvaluatedSaysWhat: what the interpreter does not evaluate is
// reported with the construct, never guessed.
func TestNotEvaluatedSaysWhat(t *testing.T) {
	src := `#!/bin/sh
SPACEY='a b'
lister() { git ls-files; }
needs2() { printf '%s' "$2"; }
function bashy { printf x; }
A=$(printf '%s' "$SPACEY" | tr a b)
B=$((1 + 2))
C=${SPACEY:-x}
D=` + "`date`" + `
E=$(printf a && printf b)
F=$(lister)
G=$(needs2 one)
H=$(twice x)
twice() { printf '%s%s' "$1" "$1"; }
I=$(knob x)
knob() { printf '%s' "$1"; }
J=$(knob $SPACEY)
K=$(echo 'a\b')
L=$(bashy)
M=$(sed 's/a/b/')
N=$(printf '%d' 1)
for r in a b; do LOOP=$r; done
O=$LOOP
[ -n "$SPACEY" ] || MAYBE=1
P=$MAYBE
if true; then IFVAR=1; fi
R=$IFVAR
(SUB=1)
S=$SUB
printf x | PIPED=1
U=$PIPED
V=$(cat <<EOF
x
EOF
)
eval "W=1"
X=$SPACEY
`
	s := read(src)
	if s.parseErr != nil {
		t.Fatalf("parse: line %d: %s", s.line(s.parseErr.pos), s.parseErr.msg)
	}
	vals := map[string]value{}
	for _, a := range s.assigns {
		if _, ok := vals[a.name]; !ok {
			vals[a.name] = a.val
		}
	}
	for name, want := range map[string]string{
		"A": `the command "tr" is not evaluated`,
		"B": "an arithmetic expansion $((…)) is not evaluated",
		"C": "the expansion ${SPACEY:-x} is not evaluated (only plain ${NAME})",
		"D": "a `backquoted` command substitution is not evaluated",
		"E": "&& in a command substitution is not evaluated (line 10)",
		"F": `the command "git" is not evaluated`,
		"G": "the function needs2 is called with 1 argument(s), so $2 is unset",
		"H": `the command "twice" is not evaluated`,
		"I": `the command "knob" is not evaluated`,
		"J": "sh splits the unquoted $SPACEY into fields and expands it as file names (it holds a character of IFS): quote it",
		"K": `echo "a\\b": sh's echo reads backslash escapes and bash's does not`,
		"L": "function bashy { … } (line 5) is bash's and ksh's form, which sh does not read",
		"M": "sed on line 20 reads the script's standard input",
		"N": "printf conversion %d is not evaluated (only %s)",
		"O": "$LOOP: it is assigned inside the for on line 22, which runs it as often as the run goes",
		"P": "$MAYBE: it is assigned only when the command before || on line 24 fails",
		"R": "$IFVAR: it is assigned inside the if on line 26, which runs it or not as the run goes",
		"S": "$SUB is not assigned in the script before it is used",
		"U": "$PIPED is not assigned in the script before it is used",
		"V": "the redirection <<EOF is not evaluated",
		"X": "$SPACEY: after the eval on line 36, which can assign any variable",
	} {
		v := vals[name]
		if !strings.Contains(v.bad, want) {
			t.Errorf("%s: %+v, want the reason %q", name, v, want)
		}
	}
	// Where an assignment is not run at the top level, its record says so.
	for _, a := range s.assigns {
		if a.name == "SUB" && (a.runs || !strings.Contains(a.val.bad, "inside the ( … ) subshell on line 28")) {
			t.Errorf("SUB: %+v", a)
		}
	}
}

// TestParseShStructure: comments, here-documents and case patterns do not
// hide or invent assignments.
func TestParseShStructure(t *testing.T) {
	src := `#!/bin/sh
# NOT=1 in a comment
cat <<'EOT'
HEREDOC=1 P1@x@y@z
EOT
case "$1" in
  a|b) CASE=1 ;;
  *) ;;
esac
f() { # a comment with a { brace
  IN_F=1
}
AFTER=$(printf '%s' "x)y")
`
	s := read(src)
	if s.parseErr != nil {
		t.Fatalf("parse: line %d: %s", s.line(s.parseErr.pos), s.parseErr.msg)
	}
	var names []string
	for _, a := range s.assigns {
		names = append(names, a.name)
	}
	if got := strings.Join(names, " "); got != "CASE IN_F AFTER" {
		t.Errorf("assignments %q, want CASE IN_F AFTER", got)
	}
	if v := s.knobs["AFTER"]; v.text != "x)y" || v.bad != "" {
		t.Errorf("AFTER = %+v", v)
	}
	if _, ok := s.knobs["IN_F"]; ok {
		t.Error("an assignment in a function body ran at the top level")
	}
	g := Parse("d3-x.sh", []byte(src))
	if len(g.Skipped) != 1 || g.Skipped[0].Code != "P1" || !strings.Contains(g.Skipped[0].Reason, "not inside a NAME=") {
		t.Errorf("the row in the here-document: %+v", g.Skipped)
	}
	for _, bad := range []string{"A='x", "f() {", "if true; then", "X=$(printf", "case x in a) ;;"} {
		if _, err := parseSh(bad); err == nil {
			t.Errorf("%q parsed without an error", bad)
		}
	}
}

func FuzzParseSh(f *testing.F) {
	f.Add(funcScript)
	f.Add("f() { printf '%s' \"$1\" | sed 's/a/b/'; }\nX=$(f a)\n")
	f.Add("function g { printf x; }\nY=\"$(g)\"\n")
	f.Add("case $x in (a|b) A=1;; esac; cat <<-E\n\tx\n\tE\n")
	f.Add("h() ( Z=1; printf \"$Z\" )\nW=$(h $(h))\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<14 {
			return
		}
		s := read(src)
		for _, a := range s.assigns {
			if a.start > a.end || a.end > len(src) || a.line < 1 {
				t.Fatalf("assignment %s has span %d..%d, line %d, in %d bytes", a.name, a.start, a.end, a.line, len(src))
			}
		}
		// Every function the script defines can be called with arguments
		// without the evaluator failing or looping.
		for name, fn := range s.funcs {
			if fn.bad != "" || !isName(name) {
				continue
			}
			call := newScript("V=\"$(" + name + " a 'b c')\"\n")
			call.funcs = s.funcs
			call.walk(mustParse(t, call.src), walkMode{})
		}
	})
}

func mustParse(t *testing.T, src string) *shList {
	l, err := parseSh(src)
	if err != nil {
		t.Fatalf("%q: %s", src, err.msg)
	}
	return l
}

// TestDeclarations: local, declare and typeset assign as the script's
// shell has them.
func TestDeclarations(t *testing.T) {
	for _, tc := range []struct{ shebang, want string }{
		{"#!/bin/sh", "by declare on line 3, which sh does not have"},
		{"#!/usr/bin/env bash", ""},
	} {
		s := read(tc.shebang + "\nf() { local ROWS='P1@a@b@c'; }\ndeclare D='x'\nlocal L='y'\n")
		got := map[string]assign{}
		for _, a := range s.assigns {
			got[a.name] = a
		}
		if a := got["ROWS"]; a.runs || !strings.Contains(a.val.bad, "inside the function f") {
			t.Errorf("%s: local in a function: %+v", tc.shebang, a)
		}
		if a := got["D"]; tc.want == "" && (a.val.text != "x" || !a.runs) || tc.want != "" && !strings.Contains(a.val.bad, tc.want) {
			t.Errorf("%s: declare: %+v", tc.shebang, a)
		}
		if a := got["L"]; a.runs || !strings.Contains(a.val.bad, "local outside a function on line 4") {
			t.Errorf("%s: local at the top level: %+v", tc.shebang, a)
		}
	}
}

// TestValuesBounded: a value that doubles with each assignment stops at
// maxValue with a reason, and every value built from it says so; forty
// doublings ran migrate out of memory (D90).
func TestValuesBounded(t *testing.T) {
	t.Parallel()
	src := "#!/bin/sh\nA=x\n" + strings.Repeat("A=\"$A$A\"\n", 40) + "B=$A\nC=\"$A\"y\nD=ok\n"
	s := read(src)
	if s.parseErr != nil {
		t.Fatalf("parse: %s", s.parseErr.msg)
	}
	last := map[string]value{}
	longest := 0
	for _, a := range s.assigns {
		last[a.name] = a.val
		longest = max(longest, len(a.val.text))
	}
	if longest > maxValue {
		t.Errorf("a value of %d bytes was held, over %d", longest, maxValue)
	}
	for _, name := range []string{"A", "B", "C"} {
		if v := last[name]; !strings.Contains(v.bad, "its value grows past 64 KiB, more than migrate evaluates (D90)") {
			t.Errorf("%s: %.80q", name, v.bad)
		}
	}
	if v := last["D"]; v.bad != "" || v.text != "ok" {
		t.Errorf("D: %+v", v)
	}
}
