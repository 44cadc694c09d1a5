//go:build !unix

package mcptest

import "time"

// ProcessCPU is not measured here.
func ProcessCPU() (time.Duration, bool) { return 0, false }
