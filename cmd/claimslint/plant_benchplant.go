//go:build benchplant

package main

import "time"

// A build with -tags benchplant starts 250 ms late: the slowdown the speed
// guard's test plants to show that the guard fails (D92,
// bench/compare_test.go). No release is built with the tag.
func init() { time.Sleep(250 * time.Millisecond) }
