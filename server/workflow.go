package server

import "slices"

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

// Workflow maps statuses onto classes.
type Workflow map[Status]Class

// DefaultWorkflow maps docket's own statuses and the ones beads writes
// (tombstone, hooked, pinned). A status outside it counts as active:
// unfinished, not ready, and blocking what it blocks; an import warns
// about it.
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
