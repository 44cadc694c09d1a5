// Package workflow is the workflow docket shares with claimslint: the
// statuses a record carries and the classes a workflow maps them onto. It
// is a leaf of internal/: claimslint's configuration and tracker reader
// import it, and so does docket's record; it imports nothing of either.
package workflow

import (
	"errors"
	"fmt"
	"github.com/claimslint/claimslint/internal/issueid"
	"slices"
	"sort"
	"strings"
)

// Class is where a status stands in docket's workflow: what ready, list and
// claimslint's tracker reader act on. Statuses are stored verbatim (an
// import keeps beads' hooked or pinned as written); the workflow maps each
// onto a class.
type Class string

// The classes. Only ClassOpen is ready; only ClassClosed is finished.
const (
	ClassOpen     Class = "open"
	ClassActive   Class = "active"
	ClassBlocked  Class = "blocked"
	ClassDeferred Class = "deferred"
	ClassClosed   Class = "closed"
)

// Classes lists every class in workflow order.
var Classes = []Class{ClassOpen, ClassActive, ClassBlocked, ClassDeferred, ClassClosed}

// Workflow maps statuses onto classes.
type Workflow map[Status]Class

// DefaultWorkflow maps docket's own statuses and the ones beads writes
// (tombstone, hooked, pinned). A status outside it counts as active:
// unfinished, not ready, and blocking what it blocks; it is reported
// wherever it is met (an import, a listing, claimslint's tracker reader),
// never mapped in silence.
var DefaultWorkflow = Workflow{
	StatusOpen:       ClassOpen,
	StatusInProgress: ClassActive,
	StatusBlocked:    ClassBlocked,
	StatusDeferred:   ClassDeferred,
	StatusClosed:     ClassClosed,
	"tombstone":      ClassClosed,
	"hooked":         ClassActive,
	"pinned":         ClassDeferred,
}

// WorkflowKey is where a repository configures its workflow: the key of
// .claimslint.yml's tracker section whose map With reads (D57).
const WorkflowKey = "tracker.workflow"

// With returns a copy of w with the statuses of over mapped onto the
// classes they name: the one parser of a configured workflow, used by
// claimslint's configuration for docket, docket mcp and claimslint's
// tracker reader alike. Keys are statuses as records carry them
// (lower-case tokens); values are class names. A status of docket's own
// keeps its class, since docket's commands give it meaning (close,
// reopen, update --status). Every bad entry is reported, in key order.
func (w Workflow) With(over map[string]string) (Workflow, error) {
	out := make(Workflow, len(w)+len(over))
	for s, c := range w {
		out[s] = c
	}
	keys := make([]string, 0, len(over))
	for k := range over {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []error
	for _, k := range keys {
		v := over[k]
		c, err := ParseClass(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %q: %w", WorkflowKey, k, err))
			continue
		}
		if !issueid.ValidToken(k) {
			errs = append(errs, fmt.Errorf("%s: %q is not a status a record can carry: use lower-case letters, digits, - and _, starting with a letter", WorkflowKey, k))
			continue
		}
		if slices.Contains(Statuses, Status(k)) && DefaultWorkflow[Status(k)] != c {
			errs = append(errs, fmt.Errorf("%s: %q is docket's own status and always counts as %s; map other statuses onto it instead", WorkflowKey, k, DefaultWorkflow[Status(k)]))
			continue
		}
		out[Status(k)] = c
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// ParseClass checks s against the classes.
func ParseClass(s string) (Class, error) {
	if slices.Contains(Classes, Class(s)) {
		return Class(s), nil
	}
	names := make([]string, len(Classes))
	for k, c := range Classes {
		names[k] = string(c)
	}
	return "", fmt.Errorf("class %q: use one of %s", s, strings.Join(names, ", "))
}

// Class returns the class of s, and false when the workflow does not map
// it (it then counts as ClassActive).
func (w Workflow) Class(s Status) (Class, bool) {
	c, ok := w[s]
	if !ok {
		return ClassActive, false
	}
	return c, true
}

// Of returns the statuses mapped onto any of the classes, sorted.
func (w Workflow) Of(cs ...Class) []Status {
	var out []Status
	for s, c := range w {
		if slices.Contains(cs, c) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// Unmapped returns the statuses of ss the workflow does not map, sorted
// and once each.
func (w Workflow) Unmapped(ss []Status) []Status {
	var out []Status
	for _, s := range ss {
		if _, ok := w[s]; !ok && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// UnmappedNote words the report of statuses the workflow does not map, for
// a note or a warning: what they count as and where to map them.
func UnmappedNote(ss []Status) string {
	names := make([]string, len(ss))
	for k, s := range ss {
		names[k] = string(s)
	}
	what, it := "status "+strings.Join(names, ", ")+" is", "it"
	if len(ss) > 1 {
		what, it = "statuses "+strings.Join(names, ", ")+" are", "each"
	}
	return fmt.Sprintf("%s not in the workflow, so counted as active (unfinished, never ready); map %s under %s in .claimslint.yml onto open, active, blocked, deferred or closed",
		what, it, WorkflowKey)
}
