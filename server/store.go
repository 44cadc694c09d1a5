package server

import (
	"context"
	"errors"
)

// NewIssue is what a caller supplies to create an issue; the store fills in
// the id, times, status and version.
type NewIssue struct {
	Title       string
	Description string
	Type        Type
	Priority    int
	Labels      []string
	Decisions   []string
	Author      string
}

// Patch changes some fields of an issue. Nil pointers and empty slices
// leave a field alone. IfVersion, when not zero, makes the update fail with a
// *ConflictError unless the issue is still at that version.
type Patch struct {
	Title           *string
	Description     *string
	Status          *Status
	Type            *Type
	Priority        *int
	AddLabels       []string
	RemoveLabels    []string
	AddDecisions    []string
	RemoveDecisions []string
	IfVersion       int64
}

// Filter selects issues for List. Zero fields match everything.
type Filter struct {
	Status   []Status
	Type     Type
	Label    string
	Decision string
}

// ImportResult counts what an import did.
type ImportResult struct {
	Created, Updated, Unchanged, Edges int
}

// ErrUnexported is wrapped by a write that committed to the index but could
// not rewrite the export afterwards (a full disk, a read-only or immutable
// file): the change is stored, the returned record is valid, and the next
// docket command rewrites the export from the index. It is not a failure
// to report as "nothing changed".
var ErrUnexported = errors.New("committed to the index, but the export could not be rewritten")

// Store is docket's working index. Every method that writes commits a
// transaction and then rewrites the canonical export from the committed
// state before it returns, so a caller that got no error has both on disk;
// one that got ErrUnexported has the change in the index only.
type Store interface {
	// Prefix is the id prefix of this tracker.
	Prefix() string
	Create(ctx context.Context, n NewIssue) (Issue, error)
	Get(ctx context.Context, id string) (Issue, error)
	List(ctx context.Context, f Filter) ([]Issue, error)
	Update(ctx context.Context, id string, p Patch) (Issue, error)
	CloseIssue(ctx context.Context, id, reason string, ifVersion int64) (Issue, error)
	Reopen(ctx context.Context, id string, ifVersion int64) (Issue, error)
	Comment(ctx context.Context, id, author, text string) (Issue, error)
	AddDep(ctx context.Context, id string, d Dep) (Issue, error)
	// Ready lists open issues that no unfinished issue blocks.
	Ready(ctx context.Context) ([]Issue, error)
	// Import upserts a decoded import file in one transaction.
	Import(ctx context.Context, set *ImportSet) (ImportResult, error)
	// Export returns the canonical export of the committed state.
	Export(ctx context.Context) ([]byte, error)
	Close() error
}
