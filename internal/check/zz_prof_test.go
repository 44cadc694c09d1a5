package check

import (
	"os"
	"testing"
)

func BenchmarkStdTmp(b *testing.B) {
	dir := os.Getenv("STDDIR")
	if dir == "" {
		b.Skip()
	}
	for i := 0; i < b.N; i++ {
		if _, err := Run(Options{Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}
