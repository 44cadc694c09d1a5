//go:build !linux

package sqlite

import "time"

// processCPU is not measured here.
func processCPU() (time.Duration, bool) { return 0, false }
