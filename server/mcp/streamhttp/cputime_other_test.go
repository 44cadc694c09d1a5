//go:build !unix

package streamhttp

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
