package docket

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDomainSaysNoCommandLine: no string literal of docket's domain holds a
// flag or a docket subcommand a user would type, so no front end has to
// rewrite the domain's words (D101). The words live in each front end's
// table of hints. docket init --prefix is the one exception: no other front
// end can create a tracker, and it is worded by the hint's tables too.
func TestDomainSaysNoCommandLine(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	cli := regexp.MustCompile(`(^|[\s(])--[a-z]|docket (close|reopen|list|show|update|export --check)\b`)
	fset := token.NewFileSet()
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			seen++
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if cli.MatchString(s) && !isPrefixHelp(s) {
				t.Errorf("%s: the domain says %q: give the error a Hint and word it in each front end's table", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
	if seen < 100 {
		t.Fatalf("read %d string literals: the test looks in the wrong place", seen)
	}
}

// isPrefixHelp: the messages that send a user to docket init --prefix, the
// only way to give a tracker its prefix; and the import's own format flag,
// a command-line-only operation.
func isPrefixHelp(s string) bool {
	return strings.Contains(s, "docket init --prefix") || strings.Contains(s, "give --format") || strings.Contains(s, "import it with --format")
}

// TestErrorCodes: an *Error is its code's sentinel for errors.Is, wraps its
// cause, and says its message after the sentinel's words; a hint is worded
// by the table given, never by the domain.
func TestErrorCodes(t *testing.T) {
	t.Parallel()
	cause := errors.New("disk full")
	words := map[Hint]string{HintRewrite: "; next time{detail}", HintListIDs: "; list them"}
	for _, tc := range []struct {
		name     string
		err      error
		is       error
		text     string
		worded   string
		message  string
		hintless bool
	}{
		{"invalid", Invalidf("title %q", "x"), ErrInvalid, `invalid input: title "x"`, `invalid input: title "x"`, `title "x"`, true},
		{"hinted", Hintf(HintListIDs, "no %s", "x"), ErrInvalid, "invalid input: no x", "invalid input: no x; list them", "no x", false},
		{"not found", NotFound("dk-1"), ErrNotFound, "no such issue: dk-1", "no such issue: dk-1; list them", "no such issue: dk-1", false},
		{"unexported", &Error{Code: CodeUnexported, Hint: HintRewrite, Detail: " (kept)", Err: cause}, ErrUnexported, ErrUnexported.Error() + " (disk full)", ErrUnexported.Error() + " (disk full); next time (kept)", ErrUnexported.Error() + " (disk full)", false},
		{"wrapped", fmt.Errorf("update dk-1: %w", Hintf(HintListIDs, "gone")), ErrInvalid, "update dk-1: invalid input: gone", "update dk-1: invalid input: gone; list them", "update dk-1: invalid input: gone", false},
		{"conflict", &ConflictError{ID: "dk-1", Want: 1, Have: 2}, ErrConflict, "dk-1 is at version 2, not 1: it changed since you read it", "dk-1 is at version 2, not 1: it changed since you read it", "dk-1 is at version 2, not 1: it changed since you read it", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if !errors.Is(tc.err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", tc.err, tc.is)
			}
			if got := tc.err.Error(); got != tc.text {
				t.Errorf("Error() = %q, want %q", got, tc.text)
			}
			if got := Worded(tc.err, words); got != tc.worded {
				t.Errorf("Worded = %q, want %q", got, tc.worded)
			}
			if got := MessageOf(tc.err); got != tc.message {
				t.Errorf("MessageOf = %q, want %q", got, tc.message)
			}
			if h, _ := HintOf(tc.err); (h == NoHint) != tc.hintless {
				t.Errorf("HintOf = %v", h)
			}
		})
	}
	if !errors.Is(&Error{Code: CodeUnexported, Err: cause}, cause) {
		t.Error("an *Error does not wrap its cause")
	}
	if errors.Is(Invalidf("x"), ErrNotFound) {
		t.Error("an invalid-input error is ErrNotFound")
	}
}
