//go:build !unix

package repo

// ownedByUs is false where ownership is not read here: git is asked.
func ownedByUs(string) bool { return false }
