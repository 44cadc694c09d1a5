package trackerformat

// BeadsFormat is beads' issues.jsonl: one JSON object a line, no schema
// key. docket reads and writes every field of it with its own codec (D49,
// D59).
//
//registry:formats 2
var BeadsFormat = &Format{
	Name:  Beads,
	Desc:  "beads' issues.jsonl shape",
	Help:  "beads' issues.jsonl shape, for bd import",
	Why:   "beads' records: one JSON object a line, no schema key (internal/trackerformat.Detect)",
	Sniff: func(t []byte) bool { _, ok := firstObject(t); return ok },
	Walk:  walkLines,
	Read:  readJSONL,
	Noun:  "a JSON object",
}

// BeadsKeys is the order bd writes an issue's keys in: the field order of
// beads' internal/types.Issue from December 2025 (when it wrote "wisp")
// through January 2026 and in its current source, merged (each version
// writes a subsequence of it; every issues.jsonl beads committed from
// December 2025 to its last in January 2026 is in this order), then the
// counts and parent that bd export appends after the embedded Issue
// (types.IssueWithCounts). "_type" leads, as bd export writes it. Keys
// outside the list follow, sorted (D59).
var BeadsKeys = []string{
	"_type", "id", "title", "description", "design", "acceptance_criteria", "notes", "spec_id",
	"status", "priority", "issue_type", "assignee", "owner", "estimated_minutes",
	"created_at", "created_by", "updated_at", "started_at", "closed_at", "close_reason", "closed_by_session",
	"due_at", "defer_until", "external_ref", "source_system", "metadata",
	"compaction_level", "compacted_at", "compacted_at_commit", "original_size",
	"labels", "dependencies", "comments",
	"deleted_at", "deleted_by", "delete_reason", "original_type",
	"sender", "wisp", "ephemeral", "no_history", "wisp_type", "pinned", "is_template", "bonded_from",
	"creator", "validations", "quality_score", "crystallizes",
	"await_type", "await_id", "timeout", "waiters", "holder",
	"source_formula", "source_location", "hook_bead", "role_bead", "agent_state", "last_activity",
	"role_type", "rig", "mol_type", "work_type", "event_kind", "actor", "target", "payload",
	"dependency_count", "dependent_count", "comment_count", "parent",
}

// BeadsDepKeys and BeadsCommentKeys are the field orders of beads'
// types.Dependency and types.Comment.
var (
	BeadsDepKeys     = []string{"issue_id", "depends_on_id", "type", "created_at", "created_by", "metadata", "thread_id"}
	BeadsCommentKeys = []string{"id", "issue_id", "author", "text", "created_at"}
)
