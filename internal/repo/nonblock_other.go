//go:build !unix

package repo

// openNonblock is 0 where opening has no non-blocking flag: ReadIn's stat
// before the open refuses what is not a regular file.
const openNonblock = 0
