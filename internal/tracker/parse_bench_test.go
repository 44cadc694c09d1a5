package tracker

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParse reads a docket export and a gh export of 10,000 records
// each: the reader every check runs on the tracker export (D103 moved it
// onto the format values; compare with the commit before).
func BenchmarkParse(b *testing.B) {
	var jl, gh strings.Builder
	gh.WriteString("[\n")
	for i := range 10_000 {
		fmt.Fprintf(&jl, `{"id":"dk-%d","title":"issue %d","status":"open","decisions":["D%d"],"schema":1}`+"\n", i, i, i%100)
		if i > 0 {
			gh.WriteString(",\n")
		}
		fmt.Fprintf(&gh, `{"number":%d,"title":"issue %d","state":"OPEN","labels":[]}`, i+1, i)
	}
	gh.WriteString("\n]\n")
	for _, tc := range []struct{ name, format, data string }{{"docket", "docket", jl.String()}, {"github", "github", gh.String()}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			for b.Loop() {
				if e, fs := Parse("x", tc.format, []byte(tc.data), nil); len(e.Issues) != 10_000 || len(fs) != 0 {
					b.Fatalf("%d issues, %v", len(e.Issues), fs)
				}
			}
		})
	}
}
