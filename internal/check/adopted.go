package check

import (
	"fmt"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/register"
)

// statusAdvice is the fix for an adopted record's status that is not in
// the vocabulary: map it, never edit the record.
func statusAdvice(d *register.Decision) string {
	return fmt.Sprintf("status %q of adopted record %s is not in the status vocabulary: map it in %s (statuses: {%q: proposed}, or accepted, rejected, deprecated, superseded) and write that status in its register row",
		d.RawStatus, d.FileID, config.FileName, d.Status)
}
