// Package buildinfo reports the module version and VCS revision a binary
// was built from, for `claimslint version` and `docket version`.
package buildinfo

import "runtime/debug"

// Version returns the main module's version as go install recorded it
// ("(devel)" for a local build) and the first 12 characters of the VCS
// revision when the build stamped one.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

// Revision returns the full VCS revision the binary was built from, or ""
// when the build stamped none (go run, tests): init pins the workflow it
// writes to it.
func Revision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			return s.Value
		}
	}
	return ""
}
