package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
)

// committedIndex lists the index's files that git tracks in the
// repository at root (git ls-files): an index a branch committed is not
// this clone's cache, and docket does not open it (D67). A dedicated
// index directory (.docket) counts as a whole. Outside a repository, with
// no index yet, or where git cannot tell (no git, no repository git
// reads), nothing is listed.
func committedIndex(root string, b sqlite.Backend) []string {
	if root == "" {
		return nil
	}
	dir := filepath.Dir(b.DB)
	if _, err := os.Lstat(dir); err != nil {
		return nil // no index directory: nothing of it can be there
	}
	var specs []string
	if filepath.Base(dir) == ".docket" {
		specs = []string{dir}
	} else {
		specs = append([]string{b.DB, b.DB + ".lock", docket.IDLog(b.DB), docket.PendingLog(b.DB)}, b.Files()...)
	}
	args := []string{"--literal-pathspecs", "-c", "core.quotepath=off", "ls-files", "-z", "--cached", "--"}
	for _, p := range specs {
		rel, err := filepath.Rel(root, p)
		if err != nil || !filepath.IsLocal(rel) {
			return nil
		}
		args = append(args, filepath.ToSlash(rel))
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var tracked []string
	for _, f := range bytes.Split(out, []byte{0}) {
		// A committed .docket/.gitignore (a repository that keeps the
		// directory) holds no index state.
		if len(f) > 0 && path.Base(string(f)) != ".gitignore" {
			tracked = append(tracked, string(f))
		}
	}
	return tracked
}

// distrust says which of the index's files git tracks, and what docket
// does about it.
func distrust(tracked []string) string {
	names := make([]string, 0, 3)
	for _, f := range tracked[:min(len(tracked), 3)] {
		names = append(names, safeName(f))
	}
	more := ""
	if len(tracked) > 3 {
		more = fmt.Sprintf(" and %d more", len(tracked)-3)
	}
	fix := "git rm " + strings.Join(names, " ")
	if dir := filepath.Dir(tracked[0]); filepath.Base(dir) == ".docket" {
		fix = "git rm -r " + safeName(filepath.ToSlash(dir))
	}
	// Not --cached: the file a commit brought goes too, and the next
	// command builds the index afresh from the export.
	return fmt.Sprintf("the index is committed to git (%s%s): docket's index is a clone's own cache, so docket does not open one a commit brought; reads are served from the export, and writes are refused until you run %s and commit (the next command builds the index from the export) (D67)",
		strings.Join(names, ", "), more, fix)
}

// safeName is a file name as git printed it, quoted when it holds a
// character a terminal would act on.
func safeName(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
