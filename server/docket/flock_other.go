//go:build !unix

package docket

// lockPath locks nothing where flock is not available: a damaged index
// found by two processes at once may then be rebuilt twice.
func lockPath(_ Files, path string, exclusive bool) func() { return func() {} }
