//go:build linux

package repo

import "testing"

// The component walk that replaces openat2 on kernels without it refuses
// the same paths.
func TestReadNeverLeavesRootWithoutOpenat2(t *testing.T) {
	saved := noOpenat2.Load()
	noOpenat2.Store(true)
	defer noOpenat2.Store(saved)
	readNeverLeavesRoot(t)
}
