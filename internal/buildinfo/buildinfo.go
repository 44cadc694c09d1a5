// Package buildinfo reports the module version and VCS revision a binary
// was built from, for `claimslint version` and `docket version`.
package buildinfo

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Version returns the main module's version as go install recorded it
// ("(devel)" for a local build) and the first 12 characters of the VCS
// revision when the build stamped one.
func Version() string {
	v, rev, _ := stamp()
	if len(rev) >= 12 {
		v += " " + rev[:12]
	}
	return v
}

// stamp returns what the build recorded: the main module's version
// ("(devel)" for a local build, "(unknown)" without build info) and the
// VCS revision and modified flag, when the build stamped them.
func stamp() (version, revision string, modified bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)", "", false
	}
	version = bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return version, revision, modified
}

// Commit returns the commit the binary was built from and where that was
// read: from the build's VCS stamp (go build, go install in a clone), or,
// when the build stamped none (go run, -buildvcs=false), from the git
// repository this package's source file was compiled in, as long as the
// path was not trimmed (-trimpath) and the binary is not a test binary.
// That repository's HEAD counts only while it has not moved since the
// executable was written. modified says the tree had changes that commit
// does not hold. commit is "" when neither is known.
func Commit() (commit string, modified bool, from string) {
	if _, rev, mod := stamp(); rev != "" {
		return rev, mod, "the build"
	}
	// A test binary reports no commit, so what tests print does not
	// depend on the state of the clone they run in.
	if testing.Testing() {
		return "", false, ""
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", false, ""
	}
	dir := filepath.Dir(file)
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", false, ""
	}
	commit = strings.TrimSpace(string(out))
	// The clone's HEAD is the binary's commit only if HEAD has not moved
	// (a checkout, a commit, a reset) since the binary was built: the
	// newest entry of HEAD's reflog must be older than the executable.
	if moved, ok := movedSince(dir); ok && moved {
		return "", false, ""
	}
	// Changes to the module's tracked files make the binary something the
	// commit does not hold (untracked files do not: go build ignores them
	// unless they are Go files, and git status -uno leaves them out).
	st, err := exec.Command("git", "-C", dir, "status", "--porcelain", "-uno").Output()
	modified = err != nil || len(bytes.TrimSpace(st)) > 0
	top, _ := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	return commit, modified, "the source tree " + strings.TrimSpace(string(top))
}

// movedSince reports whether HEAD of the clone at dir moved after the
// running executable was written; ok is false when either time is unknown
// (no reflog: then HEAD is trusted, as a fresh clone has none to move).
func movedSince(dir string) (moved, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return false, false
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return false, false
	}
	out, err := exec.Command("git", "-C", dir, "log", "-g", "-1", "--date=unix", "--format=%gd", "HEAD").Output()
	if err != nil {
		return false, false
	}
	// HEAD@{1764581234}
	v := strings.TrimSpace(string(out))
	i, j := strings.IndexByte(v, '{'), strings.IndexByte(v, '}')
	if i < 0 || j < i {
		return false, false
	}
	sec, err := strconv.ParseInt(v[i+1:j], 10, 64)
	if err != nil {
		return false, false
	}
	// The reflog counts whole seconds: a move in the second the binary
	// was written counts as after it.
	return !time.Unix(sec, 0).Before(fi.ModTime().Truncate(time.Second)), true
}

// Describe is the line `claimslint version` and `docket version` print
// after the program's name: the module version, the commit and where it
// was read, or what to do when no commit is known.
func Describe() string {
	v, _, _ := stamp()
	commit, modified, from := Commit()
	if commit == "" {
		return v + ", commit unknown (built with -buildvcs=false or -trimpath outside a git clone, or the clone it was built in has moved since): build from a clone at a commit you pin, and give init --ref that commit"
	}
	s := v + " commit " + commit + " (read from " + from
	if modified {
		s += "; the tree had uncommitted changes, so the binary is not exactly that commit"
	}
	return s + ")"
}
