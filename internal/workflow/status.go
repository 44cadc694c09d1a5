package workflow

// Status is where an issue stands.
type Status string

// The statuses an issue can have. Only closed counts as finished.
const (
	StatusOpen       Status = "open"
	StatusInProgress Status = "in_progress"
	StatusBlocked    Status = "blocked"
	StatusDeferred   Status = "deferred"
	StatusClosed     Status = "closed"
)

// Statuses lists every valid status in display order.
var Statuses = []Status{StatusOpen, StatusInProgress, StatusBlocked, StatusDeferred, StatusClosed}
