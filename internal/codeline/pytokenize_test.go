package codeline

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tokenizeScript prints, as JSON, the byte offset of every comment that
// Python's own tokenize module finds in each file named on its command
// line.
const tokenizeScript = `
import sys, tokenize, io, json
out = {}
for p in sys.argv[1:]:
    src = open(p, 'rb').read()
    try:
        src.decode('utf-8')
        toks = list(tokenize.tokenize(io.BytesIO(src).readline))
    except Exception:
        continue
    lines = src.split(b'\n')
    starts = [0]
    for l in lines:
        starts.append(starts[-1] + len(l) + 1)
    out[p] = [starts[t.start[0]-1] + len(lines[t.start[0]-1].decode('utf-8')[:t.start[1]].encode('utf-8'))
              for t in toks if t.type == tokenize.COMMENT]
json.dump(out, sys.stdout)
`

// TestPythonTokenize checks the Python lexer against Python's tokenize
// module on the Python standard library of this machine: the same
// comments at the same offsets. It skips when there is no python3.
func TestPythonTokenize(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	libs, _ := filepath.Glob("/usr/lib/python3.*/*.py")
	if len(libs) == 0 {
		out, err := exec.Command(py, "-c", "import os; print(os.path.dirname(os.__file__))").Output()
		if err == nil {
			libs, _ = filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "*.py"))
		}
	}
	if len(libs) < 20 {
		t.Skipf("only %d files of Python's library found", len(libs))
	}
	// Every fourth file keeps the run short, and threading.py, whose
	// f-strings hold '#' in format specs ({id(self):#x}).
	var pick []string
	for k, p := range libs {
		if k%4 == 0 || filepath.Base(p) == "threading.py" {
			pick = append(pick, p)
		}
	}
	libs = pick
	out, err := exec.Command(py, append([]string{"-c", tokenizeScript}, libs...)...).Output()
	if err != nil {
		t.Fatalf("python3 tokenize: %v", err)
	}
	var want map[string][]int
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for _, p := range libs {
		offs, ok := want[p]
		if !ok {
			continue
		}
		src := readFile(t, p)
		var r Regions
		Scan(p, src, &r)
		var mine []int
		for _, s := range r.Spans {
			if s.Kind == Comment && src[s.Start] == '#' {
				mine = append(mine, s.Start)
			}
		}
		if fmt.Sprint(mine) != fmt.Sprint(offs) {
			t.Errorf("%s: comments at %v, tokenize: %v", p, mine, offs)
		}
	}
}
