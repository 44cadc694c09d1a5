package docket

import (
	"context"
)

// Index is the narrow interface the service needs from a working index:
// transactions, a small key-value meta table, stored records with their
// canonical lines, and the few queries that must be fast at scale. It holds
// no record rules: the service validates, allocates, checks transitions and
// cycles, and owns the export protocol. server/sqlite implements it on
// SQLite; memindex implements it in memory for tests.
type Index interface {
	// Read runs fn on a consistent snapshot.
	Read(ctx context.Context, fn func(Reader) error) error
	// Write runs fn in an exclusive write transaction, committed when fn
	// returns nil and rolled back otherwise. An index may run fn again when
	// another process held the lock (fn must be safe to repeat).
	Write(ctx context.Context, fn func(Writer) error) error
	Close() error
}

// OneGetter is an Index that reads one record in a single statement, with
// no explicit transaction around it: one statement is its own snapshot,
// so the answer is Read's with Reader.Get, without the begin and the
// rollback (dk-8i4). Service.Get uses it when the index offers it.
type OneGetter interface {
	GetOne(ctx context.Context, id string) (Issue, error)
}

// Reader is what a read transaction offers.
type Reader interface {
	// Meta returns the value stored under key, or "" when there is none.
	Meta(key string) (string, error)
	// Get returns the stored record with that id; an error wrapping
	// ErrNotFound when there is none.
	Get(id string) (Issue, error)
	// Has reports whether a record with that id is stored.
	Has(id string) (bool, error)
	// Blockers returns the ids that block id: the holders of a blocks edge
	// to id, and the targets of id's depends-on edges.
	Blockers(id string) ([]string, error)
	// Blocked returns the ids id blocks: the targets of id's blocks edges,
	// and the holders of a depends-on edge to id.
	Blocked(id string) ([]string, error)
	// Rows returns the index rows q selects, in q's order, at most q.Limit
	// of them (all when 0), starting after q.After.
	Rows(q Query) ([]Row, error)
	// Count returns how many rows q selects after q.After, ignoring Limit.
	Count(q Query) (int, error)
	// Lines calls fn with every stored canonical line in id order; a line
	// is valid only during its call.
	Lines(fn func(line []byte) error) error
	// Allocated returns how many ids were ever allocated.
	Allocated() (int, error)
	// Statuses returns the distinct statuses of the stored records, sorted;
	// it must not cost a scan of every record.
	Statuses() ([]Status, error)
}

// Writer is what a write transaction offers on top of Reader.
type Writer interface {
	Reader
	SetMeta(key, value string) error
	// Put stores a normalized record and its canonical line, replacing any
	// earlier version with that id.
	Put(i Issue, line []byte) error
	// Clear removes every stored record (not the allocated ids).
	Clear() error
	// Allocate records id as allocated and reports whether it was free.
	Allocate(id string) (bool, error)
}
