package sqlite

import "testing"

// withCPU runs a benchmark body and reports the process CPU time per
// operation as cpu-ms/op beside the wall time.
func withCPU(fn func(b *testing.B)) func(b *testing.B) {
	return func(b *testing.B) {
		c0, ok := processCPU()
		fn(b)
		if c1, ok2 := processCPU(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(c1-c0)/float64(b.N)/1e6, "cpu-ms/op")
		}
	}
}
