package docket

import (
	"errors"
	"fmt"
	"strings"
)

// Code says what kind of thing went wrong. Each front end owns one small
// map from a code to what it does about it: the CLI to an exit status, MCP
// to a tool error or a JSON-RPC code (D101). Codes are tested with
// errors.Is against the sentinels below, never by the message.
type Code string

// The codes a domain error carries.
const (
	CodeInvalid    Code = "invalid"    // the input is wrong: the user can fix it (ErrInvalid)
	CodeNotFound   Code = "not_found"  // no record has that id (ErrNotFound)
	CodeConflict   Code = "conflict"   // someone else wrote the record first (ErrConflict)
	CodeUnexported Code = "unexported" // committed to the index, the export behind (ErrUnexported)
)

// Errors a Store returns, tested with errors.Is. Each is a user mistake or a
// lost race, not a failure of the tool. They are the sentinels of the codes
// above: an *Error of code CodeInvalid is ErrInvalid, and so on.
var (
	ErrNotFound = errors.New("no such issue")
	ErrConflict = errors.New("version conflict")
	ErrInvalid  = errors.New("invalid input")
)

// ErrUnexported is wrapped by a write that committed to the index but could
// not rewrite the export afterwards (a full disk, a read-only or immutable
// file): the change is stored, the returned record is valid, and the next
// docket command rewrites the export from the index. It is not a failure
// to report as "nothing changed".
var ErrUnexported = errors.New("committed to the index, but the export could not be rewritten")

var sentinels = map[Code]error{
	CodeInvalid:    ErrInvalid,
	CodeNotFound:   ErrNotFound,
	CodeConflict:   ErrConflict,
	CodeUnexported: ErrUnexported,
}

// Hint names what the user can do next. The domain says which hint
// applies; each front end words it in its own terms (a command line and its
// flags for the CLI, tool names and arguments for MCP), so no domain
// message holds a flag or a command and no front end rewrites another's
// words (D101).
type Hint int

// The hints a domain error can carry.
const (
	NoHint         Hint = iota
	HintListIDs         // the ids there are can be listed
	HintCloseOpen       // a status does not close or reopen: the close and reopen operations do
	HintCloseHow        // how an issue is closed, where a status is set
	HintGiveReason      // a close needs a reason
	HintReread          // the record changed: read it again and retry with its version
	HintRewrite         // the next write rewrites the export from the index
	HintInitPrefix      // the tracker needs an id prefix first
)

// Hints lists every hint, so each front end's table is tested complete.
var Hints = []Hint{HintListIDs, HintCloseOpen, HintCloseHow, HintGiveReason, HintReread, HintRewrite, HintInitPrefix}

// Error is a domain error: a code, the argument it is about when there is
// one, what is wrong in the domain's own words, a hint the front end words,
// and the cause it wraps. Error() is the message alone, prefixed by the
// code's sentinel ("invalid input: ..."); a front end adds its wording of
// the hint with Worded.
type Error struct {
	Code    Code
	Arg     string // the argument (flag or tool parameter) at fault, or ""
	Message string // what is wrong: no flag, no command, no tool name
	Hint    Hint
	// Detail is text the hint's wording carries along (the journal a
	// failed export left its records in); most hints have none.
	Detail string
	Err    error // the cause, or nil
}

func (e *Error) Error() string {
	if e.Message == "" && e.Err != nil {
		if s, ok := sentinels[e.Code]; ok {
			return s.Error() + " (" + e.Err.Error() + ")"
		}
	}
	if s, ok := sentinels[e.Code]; ok {
		if e.Message == "" {
			return s.Error()
		}
		return s.Error() + ": " + e.Message
	}
	return e.Message
}

// Is makes errors.Is(err, ErrInvalid) true for an error of CodeInvalid, and
// likewise for each code's sentinel.
func (e *Error) Is(target error) bool { return target != nil && sentinels[e.Code] == target }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Invalidf returns an error of CodeInvalid saying what is wrong and how to
// fix it.
func Invalidf(format string, args ...any) error {
	return &Error{Code: CodeInvalid, Message: sprintf(format, args...)}
}

// Hintf returns an error of CodeInvalid whose message is followed by the
// front end's wording of h.
func Hintf(h Hint, format string, args ...any) error {
	return &Error{Code: CodeInvalid, Message: sprintf(format, args...), Hint: h}
}

// NotFound returns the error of an id no record has.
func NotFound(id string) error {
	return &Error{Code: CodeNotFound, Message: id, Hint: HintListIDs}
}

// MessageOf returns err's text without the "invalid input: " an input
// error opens with: the message of an *Error of CodeInvalid, or
// err.Error(). It never holds a hint's words (see Say).
func MessageOf(err error) string {
	if e, ok := err.(*Error); ok && e.Code == CodeInvalid {
		return e.Message
	}
	return err.Error()
}

// Say is MessageOf(err) followed by words' wording of err's hint: what a
// front end prints where the code is said another way (a flag's name, a
// tool's).
func Say(err error, words map[Hint]string) string {
	return withHint(MessageOf(err), err, words)
}

// HintOf returns the hint of the first error in err's chain that carries
// one, with its detail.
func HintOf(err error) (Hint, string) {
	for err != nil {
		switch e := err.(type) {
		case *Error:
			if e.Hint != NoHint {
				return e.Hint, e.Detail
			}
		case *ConflictError:
			return HintReread, ""
		}
		err = errors.Unwrap(err)
	}
	return NoHint, ""
}

// Worded returns err's text followed by words' wording of its hint, with
// the hint's detail in place of {detail}. A joined error is worded part by
// part, one part a line, as errors.Join prints it.
func Worded(err error, words map[Hint]string) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var parts []string
		for _, e := range j.Unwrap() {
			parts = append(parts, Worded(e, words))
		}
		return strings.Join(parts, "\n")
	}
	return withHint(err.Error(), err, words)
}

func withHint(text string, err error, words map[Hint]string) string {
	h, detail := HintOf(err)
	if h == NoHint {
		return text
	}
	return text + strings.ReplaceAll(words[h], "{detail}", detail)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
