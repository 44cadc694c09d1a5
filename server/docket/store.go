package docket

import (
	"context"
	"strings"
	"unicode"
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
	Title       *string
	Description *string
	Status      *Status
	Type        *Type
	Priority    *int
	// Assignee, when set, changes who holds the issue; "" releases it.
	Assignee        *string
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
	Created, Updated, Unchanged int
	// Deps counts the dependencies the imported records carry; Edges the
	// ones added to records already stored.
	Deps, Edges int
	// Dangling lists the dependencies on ids that neither the file nor the
	// tracker holds: kept, and reported.
	Dangling []Edge
}

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
	// Claim sets the assignee of an unfinished issue and moves it to the
	// workflow's active status (in_progress), in one write; it is refused when
	// someone else holds the issue.
	Claim(ctx context.Context, id, assignee string, ifVersion int64) (Issue, error)
	// AddDep adds an edge; an edge already there changes nothing.
	AddDep(ctx context.Context, id string, d Dep) (Issue, error)
	// RemoveDep removes an edge the issue holds.
	RemoveDep(ctx context.Context, id string, d Dep) (Issue, error)
	// Listing validates p and returns one page of view from index columns.
	Listing(ctx context.Context, view View, p ListParams) (Page, error)
	// Ready lists open issues that no unfinished issue blocks.
	Ready(ctx context.Context) ([]Issue, error)
	// Import upserts a decoded import file in one transaction.
	Import(ctx context.Context, set *ImportSet) (ImportResult, error)
	// Export returns the canonical export of the committed state.
	Export(ctx context.Context) ([]byte, error)
	// Unmapped lists the statuses stored records carry that the
	// tracker's workflow does not map, sorted; every listing reports them
	// rather than map them in silence (D57).
	Unmapped(ctx context.Context) ([]Status, error)
	Close() error
}

// Sort is the order of a listing.
type Sort string

// The orders a listing can take. SortPriority (most urgent first, then
// oldest) is the default.
const (
	SortPriority Sort = "priority"
	SortCreated  Sort = "created"
	SortUpdated  Sort = "updated"
	SortID       Sort = "id"
)

// Sorts lists every valid order.
var Sorts = []Sort{SortPriority, SortCreated, SortUpdated, SortID}

// ParseSort checks s against the orders; "" is SortPriority.
func ParseSort(s string) (Sort, error) {
	if s == "" {
		return SortPriority, nil
	}
	for _, x := range Sorts {
		if string(x) == s {
			return x, nil
		}
	}
	return "", Invalidf("sort %q: use one of %s", s, joinStrings(Sorts))
}

// Key is a row's position in a listing: what a cursor resumes after.
type Key struct {
	Priority int
	Time     string // created_at, or updated_at for SortUpdated
	ID       string
}

// Query selects index rows for list, ready, blocked and search. The
// service fills the status sets from the workflow; an index only matches
// them.
type Query struct {
	Statuses []Status // match any of these; empty matches every status
	Exclude  []Status // and none of these
	Type     Type
	Label    string
	Decision string
	// Assignee, when set, keeps rows of issues that assignee holds.
	Assignee string
	// Priority, when set, keeps rows of that priority only.
	Priority *int
	// Text keeps rows whose title or description has, for every word of
	// the text (SearchWords), a word that starts with it.
	Text string
	// Ready keeps rows that nothing unfinished blocks, directly or through
	// a parent.
	Ready bool
	// Blocked keeps rows whose status is in BlockedStatuses or that
	// something unfinished blocks, directly or through a parent.
	Blocked         bool
	BlockedStatuses []Status
	// Finished are the statuses whose issues no longer block.
	Finished []Status
	Sort     Sort
	After    *Key
	Limit    int // 0: no limit
}

// Row is what an index keeps in columns for listings, so a page is served
// without decoding records.
type Row struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Status    Status `json:"status"`
	Type      Type   `json:"type"`
	Priority  int    `json:"priority"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// RowOf returns the index row of a record.
func RowOf(i Issue) Row {
	return Row{ID: i.ID, Title: i.Title, Status: i.Status, Type: i.Type, Priority: i.Priority, CreatedAt: i.CreatedAt, UpdatedAt: i.UpdatedAt}
}

// KeyOf returns r's position in a listing ordered by s.
func KeyOf(r Row, s Sort) Key {
	switch s {
	case SortUpdated:
		return Key{Priority: 0, Time: r.UpdatedAt, ID: r.ID}
	case SortCreated:
		return Key{Time: r.CreatedAt, ID: r.ID}
	case SortID:
		return Key{ID: r.ID}
	}
	return Key{Priority: r.Priority, Time: r.CreatedAt, ID: r.ID}
}

// CompareKeys orders two keys of the same sort: priority ascending, then
// time (descending for SortUpdated, newest first), then id.
func CompareKeys(s Sort, a, b Key) int {
	if a.Priority != b.Priority {
		return a.Priority - b.Priority
	}
	if c := strings.Compare(a.Time, b.Time); c != 0 {
		if s == SortUpdated {
			return -c
		}
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// SearchWords splits a search text into the words it matches: runs of
// letters and digits, lower-cased. Anything else separates words, so no
// character of a query has a meaning of its own.
func SearchWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// MatchesWords reports whether every word has a word of the title or the
// description that starts with it: what an index's search keeps.
func MatchesWords(title, description string, words []string) bool {
	have := append(SearchWords(title), SearchWords(description)...)
	for _, w := range words {
		found := false
		for _, h := range have {
			if strings.HasPrefix(h, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
