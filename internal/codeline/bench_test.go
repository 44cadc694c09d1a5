package codeline

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// corpusCap bounds the bytes of one benchmark corpus.
const corpusCap = 48 << 20

// corpusRoots are the trees of real source on this machine: the Go
// distribution (Go, C, assembly, JavaScript, shell), Python's standard
// library, the Rust standard library of Debian's rust-src package, and
// /usr/share (documentation in Markdown, HTML, YAML, TOML, SQL).
func corpusRoots() []string {
	var roots []string
	if g := goroot(); g != "" {
		roots = append(roots, filepath.Join(g, "src"), filepath.Join(g, "misc"), filepath.Join(g, "lib"))
	}
	py, _ := filepath.Glob("/usr/lib/python3*")
	rs, _ := filepath.Glob("/usr/src/rustc-*/library")
	roots = append(roots, py...)
	roots = append(roots, rs...)
	return append(roots, "/usr/share")
}

// goroot returns `go env GOROOT`, or "" when go cannot say.
func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

var corpora = map[string][][]byte{}

// corpus returns the real files, up to corpusCap bytes, that the lexer
// named lexer reads.
func corpus(lexer string) ([][]byte, int64) {
	if c, ok := corpora[lexer]; ok {
		return c, size(c)
	}
	var files [][]byte
	var total int64
	seen := map[string]bool{}
	for _, root := range corpusRoots() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || total >= corpusCap {
				if d != nil && d.IsDir() && err != nil {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() || !d.Type().IsRegular() || seen[p] {
				return nil
			}
			seen[p] = true
			if For(p, nil).name != lexer {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			files = append(files, b)
			total += int64(len(b))
			return nil
		})
	}
	corpora[lexer] = files
	return files, total
}

func size(c [][]byte) int64 {
	var n int64
	for _, b := range c {
		n += int64(len(b))
	}
	return n
}

// BenchmarkLexer reads real source with each lexer, one file after
// another on one goroutine, reusing one Regions. Its MB/s is the figure
// the target (300 MB/s a lexer) is checked against.
func BenchmarkLexer(b *testing.B) {
	for _, name := range []string{"go", "rust", "c", "js", "python", "shell", "yaml", "toml", "sql", "markdown", "html"} {
		b.Run(name, func(b *testing.B) {
			files, total := corpus(name)
			if total < 16<<10 {
				if name == "rust" {
					b.Skip("no Rust source: install Debian's rust-src (apt-get install rust-src) for /usr/src/rustc-*/library")
				}
				b.Skipf("less than 16 KiB of %s source on this machine (%d bytes)", name, total)
			}
			lx := byName[name]
			if lx == nil {
				for _, l := range byExt {
					if l.name == name {
						lx = l
					}
				}
			}
			var r Regions
			b.SetBytes(total)
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			cpu0, ok := threadCPU()
			for range b.N {
				for _, f := range files {
					lx.Scan(f, &r)
				}
			}
			cpu1, _ := threadCPU()
			b.StopTimer()
			b.ReportMetric(float64(len(files)), "files")
			if ok && cpu1 > cpu0 {
				// MB per second of this thread's CPU time: the speed on one
				// core, whatever else the machine runs.
				b.ReportMetric(float64(total)*float64(b.N)/1e6/(cpu1-cpu0).Seconds(), "cpu-MB/s")
			}
		})
	}
}

// BenchmarkGoScanner is the way Go was read before the lexers, for
// comparison: go/scanner over the same corpus.
func BenchmarkGoScanner(b *testing.B) {
	files, total := corpus("go")
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			goComments(f)
		}
	}
}

// TestGoScannerGOROOT checks the Go lexer against go/scanner on every Go
// file of the Go distribution: the same comments, and a mask equal to the
// one go/scanner's comments give.
func TestGoScannerGOROOT(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("reads the whole Go distribution")
	}
	root := filepath.Join(goroot(), "src")
	n, seen := 0, 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		// Under the race detector go/scanner is slow: every raceSample-th
		// file.
		if seen++; seen%raceSample != 0 {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		n++
		offs, lits := goComments(src)
		var r Regions
		Scan(p, src, &r)
		k := 0
		for _, s := range r.Spans {
			if s.Kind != Comment {
				continue
			}
			if k >= len(offs) || s.Start != offs[k] || stripCR(src[s.Start:s.End]) != lits[k] {
				t.Errorf("%s: comment %d at %d differs from go/scanner's", p, k, s.Start)
				return nil
			}
			k++
		}
		if k != len(offs) {
			t.Errorf("%s: %d comments, go/scanner reports %d", p, k, len(offs))
		}
		return nil
	})
	if n < 1000/raceSample {
		t.Skipf("only %d Go files under %s", n, root)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
