//go:build !unix

package mcp_test

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
