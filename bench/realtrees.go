package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// realCase is claimslint check on a real tree nobody here wrote, with
// 1,000 claims that each name one file, against the I/O floor (git ls-files
// -s and a read of the claimed files, by bench/floor) and the shell gate,
// all measured in the same run.
type realCase struct {
	name          string
	files, claims int
	claimed       int // distinct files the claims name
	checkS        stats
	floorS        stats
	readsS        stats // the floor without its git run (floor -no-git)
	gateS         stats
	skipped       string // why the case did not run
}

// A tree, the files of it claims may name, and the lines they anchor on.
type realTree struct {
	name string
	src  string // directory copied
	as   string // its name in the copy
	ext  string
	// line picks the lines a claim may anchor on; a line must also occur
	// once in its file.
	line *regexp.Regexp
	// skipFile drops files that are not production code.
	skipFile func(rel string) bool
	// perFile is how many lines of one file claims may anchor on: 1 for a
	// tree with enough files, more for one with few (rust-src has about
	// 370 files with a unique pub fn line for 1,000 claims).
	perFile int
}

func goTree() realTree {
	goroot := strings.TrimSpace(must(exec.Command("go", "env", "GOROOT").Output()))
	return realTree{
		name: "Go standard library", src: filepath.Join(goroot, "src"), as: "src", ext: ".go", perFile: 1,
		line: regexp.MustCompile(`^func [A-Za-z_(].*\{$`),
		skipFile: func(rel string) bool {
			return strings.HasSuffix(rel, "_test.go") || strings.Contains(rel, "/testdata/") || strings.Contains(rel, "/vendor/")
		},
	}
}

// rustTree is Debian's rust-src: the Rust standard library source.
func rustTree() (realTree, string) {
	dirs, _ := filepath.Glob("/usr/src/rustc-*/library")
	if len(dirs) == 0 {
		return realTree{}, "Debian's rust-src is not installed (apt-get install -y rust-src, as root)"
	}
	return realTree{
		name: "Rust standard library (Debian rust-src)", src: dirs[len(dirs)-1], as: "library", ext: ".rs", perFile: 8,
		line: regexp.MustCompile(`^(    )?pub fn [a-z_][a-z0-9_]*[<(].*\{$`),
		skipFile: func(rel string) bool {
			return strings.Contains(rel, "/tests/") || strings.Contains(rel, "/benches/") || strings.HasSuffix(rel, "/tests.rs")
		},
	}, ""
}

// realRuns is how many alternating runs of check, the floor and its reads
// the real trees' figures are medians of, and gateRuns how many of the
// shell gate: two runs of 7 and 3 on the same build, ten minutes apart on
// a quiet machine, put GOROOT at 34x and 47x the gate (D92); a run of
// check takes tens of milliseconds, so three times as many cost seconds.
const (
	realRuns = 21
	gateRuns = 5
)

// benchReal copies a tree, writes 1,000 claims that each anchor on one
// line of one file, keeps those claimslint finds (a line inside a test
// module or a block comment is not code), and measures.
func benchReal(t realTree) (realCase, error) {
	dir := filepath.Join(workDir, "real-"+t.as)
	defer os.RemoveAll(dir)
	rc, listFile, err := prepareReal(t, dir)
	if err != nil {
		return rc, err
	}
	settle() // the copy and its commit wrote hundreds of megabytes
	logf("claims: %s: claimslint check, the I/O floor, its reads alone (%d runs each) and the shell gate (%d)", t.name, realRuns, gateRuns)
	return rc, rc.timeRounds(func(name string, args ...string) (sample, error) {
		s, _, err := timeCmd(dir, nil, name, args...)
		return s, err
	}, dir, listFile)
}

// timeRounds times a prepared real tree into rc: check, the floor and its
// reads alternate, so all see the same machine, and the shell gate runs
// among them every realRuns/gateRuns rounds, not after them: a gate timed
// once the rounds are over saw a machine the rounds did not (D92). run
// starts one command in the tree and times it.
func (rc *realCase) timeRounds(run func(name string, args ...string) (sample, error), dir, listFile string) error {
	var checks, floors, reads, gates []sample
	for k := 0; k <= realRuns; k++ {
		f, err := run(bin["floor"], dir, listFile)
		if err != nil {
			return fmt.Errorf("floor: %v", err)
		}
		c, err := run(bin["claimslint"], "check")
		if err != nil {
			return err
		}
		r, err := run(bin["floor"], "-no-git", dir, listFile)
		if err != nil {
			return fmt.Errorf("floor -no-git: %v", err)
		}
		if k == 0 {
			continue // the first round warms the cache; prepareReal ran the gate once
		}
		floors, checks, reads = append(floors, f), append(checks, c), append(reads, r)
		if k%(realRuns/gateRuns) == 0 && len(gates) < gateRuns {
			g, err := run("bash", "gate.sh")
			if err != nil {
				return fmt.Errorf("shell gate: %v", err)
			}
			gates = append(gates, g)
		}
	}
	rc.checkS, rc.floorS, rc.readsS, rc.gateS = summarize(checks), summarize(floors), summarize(reads), summarize(gates)
	return nil
}

// prepareReal copies the tree t into dir and writes there a register of up
// to 1,000 claims that claimslint finds on code lines, the shell gate
// (gate.sh) and the list of claimed files the I/O floor reads (listFile).
func prepareReal(t realTree, dir string) (rc realCase, listFile string, err error) {
	rc = realCase{name: t.name}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return rc, "", err
	}
	logf("claims: copying %s", t.src)
	if b, err := exec.Command("cp", "-r", t.src, filepath.Join(dir, t.as)).CombinedOutput(); err != nil {
		return rc, "", fmt.Errorf("copy %s: %v %s", t.src, err, b)
	}
	var files []string
	all := 0
	filepath.WalkDir(filepath.Join(dir, t.as), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all++
			rel, _ := filepath.Rel(dir, p)
			if strings.HasSuffix(p, t.ext) && !t.skipFile(filepath.ToSlash(rel)) {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	rc.files = all
	r := rand.New(rand.NewPCG(7, 7))
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	// Each file offers up to perFile lines that occur once in it; claims
	// take the first line of every file, then the second, and so on, so
	// they spread over as many files as the tree has.
	var offers [][]claim
	for _, f := range files {
		if len(offers) == 1300 {
			break
		}
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		count := map[string]int{}
		lines := strings.Split(string(data), "\n")
		for _, l := range lines {
			count[l]++
		}
		var mine []claim
		for _, l := range lines {
			if len(mine) < t.perFile && t.line.MatchString(l) && count[l] == 1 {
				mine = append(mine, claim{kind: "anchored", path: f, anchor: "^" + regexp.QuoteMeta(l) + "$", dir: f})
			}
		}
		if len(mine) > 0 {
			offers = append(offers, mine)
		}
	}
	var cands []claim
	for k := 0; k < t.perFile && len(cands) < 1300; k++ {
		for _, mine := range offers {
			if k < len(mine) && len(cands) < 1300 {
				cands = append(cands, mine[k])
			}
		}
	}
	writeRegister(dir, cands)
	if err := gitInit(dir); err != nil {
		return rc, "", err
	}
	// Keep the claims claimslint finds on a code line: the others sit in a
	// test module, a comment or a string, which a grep cannot tell.
	out, err := exec.Command(bin["claimslint"], "list", "--format", "json", "--dir", dir).Output()
	if err != nil {
		return rc, "", fmt.Errorf("claimslint list on %s: %v", t.name, err)
	}
	var states []struct{ Decision, Claim, State string }
	if err := json.Unmarshal(out, &states); err != nil {
		return rc, "", err
	}
	ok := map[string]bool{}
	for _, s := range states {
		ok[s.Decision+"/"+s.Claim] = s.State == "ok"
	}
	var claims []claim
	for i, c := range cands {
		if ok[fmt.Sprintf("D%d/C%d", i/10+1, i%10+1)] && len(claims) < 1000 {
			claims = append(claims, c)
		}
	}
	rc.claims = len(claims)
	writeRegister(dir, claims)
	var gate strings.Builder
	gate.WriteString("#!/usr/bin/env bash\nfail=0\n")
	var list strings.Builder
	listed := map[string]bool{}
	for i, c := range claims {
		fmt.Fprintf(&gate, "[ \"$(grep -cE '%s' %s)\" = 1 ] || { echo 'claim %d'; fail=1; }\n", strings.ReplaceAll(c.anchor, `'`, `'\''`), c.path, i)
		if !listed[c.path] { // the floor reads each claimed file once
			listed[c.path] = true
			list.WriteString(c.path + "\n")
		}
	}
	rc.claimed = len(listed)
	gate.WriteString("exit $fail\n")
	os.WriteFile(filepath.Join(dir, "gate.sh"), []byte(gate.String()), 0o755)
	listFile = dir + ".floor.txt" // beside the tree, not in it
	os.WriteFile(listFile, []byte(list.String()), 0o644)
	if err := gitInit(dir); err != nil { // commit the final register
		return rc, "", err
	}
	for _, c := range [][]string{{bin["claimslint"], "check"}, {"bash", "gate.sh"}} {
		if _, out, err := timeCmd(dir, nil, c[0], c[1:]...); err != nil {
			return rc, "", fmt.Errorf("%s on %s: %v\n%s", c[0], t.name, err, firstLines(out, 10))
		}
	}
	return rc, listFile, nil
}

// writeRegister writes docs/PRD.md and one decision per 10 claims.
func writeRegister(dir string, claims []claim) {
	os.RemoveAll(filepath.Join(dir, "docs"))
	os.MkdirAll(filepath.Join(dir, "docs", "decisions"), 0o755)
	var prd strings.Builder
	nd := (len(claims) + 9) / 10
	fmt.Fprintf(&prd, "# Register\n\nLive range: D1..D%d.\n\n| ID | Decision | Status |\n|---|---|---|\n", nd)
	for d := 1; d <= nd; d++ {
		fmt.Fprintf(&prd, "| D%d | [Decision %d](decisions/D%d-gen.md) | accepted |\n", d, d, d)
		var dec strings.Builder
		fmt.Fprintf(&dec, "---\nid: D%d\nstatus: accepted\n---\n# D%d: Decision %d\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n", d, d, d)
		for k := (d - 1) * 10; k < min(d*10, len(claims)); k++ {
			c := claims[k]
			fmt.Fprintf(&dec, "| C%d | anchored | `%s` | `%s` | |\n", k-(d-1)*10+1, c.path, strings.ReplaceAll(c.anchor, `|`, `\\|`))
		}
		os.WriteFile(filepath.Join(dir, "docs", "decisions", fmt.Sprintf("D%d-gen.md", d)), []byte(dec.String()), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "docs", "PRD.md"), []byte(prd.String()), 0o644)
}

// scaleCase is one input built to make a naive engine slow.
type scaleCase struct {
	name   string
	checkS stats
	target string
	limit  float64 // seconds
	note   string  // what check printed, first line
}

// benchScale builds the hostile inputs of issue 16 and times check on
// each.
func benchScale(runs int) ([]scaleCase, error) {
	var out []scaleCase
	// 10k present claims on one 100k-line file.
	dir := filepath.Join(workDir, "hostile-claims")
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	var big strings.Builder
	big.WriteString("package big\n\n")
	for i := 0; i < 100000-2; i++ {
		fmt.Fprintf(&big, "var v%d = needle%d() // line %d\n", i, i, i)
	}
	os.WriteFile(filepath.Join(dir, "src", "big.go"), []byte(big.String()), 0o644)
	var claims []claim
	for i := 0; i < 10000; i++ {
		claims = append(claims, claim{path: "src/big.go", anchor: fmt.Sprintf(`needle%d\(\)`, i*9)})
	}
	writePresent(dir, claims)
	if err := gitInit(dir); err != nil {
		return nil, err
	}
	s, err := repeat(runs, func() (sample, error) {
		s, _, err := timeCmd(dir, nil, bin["claimslint"], "check")
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("10k claims: %v", err)
	}
	out = append(out, scaleCase{name: "10,000 `present` claims on one 100,000-line file (3.9 MB)", checkS: s, target: "under 1 s", limit: 1})
	os.RemoveAll(dir)

	// [a-y]{999}z on a 4 MB line with a z every 501 bytes.
	dir = filepath.Join(workDir, "hostile-regex")
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	line := strings.Repeat(strings.Repeat("a", 500)+"z", 8000)[:4000000]
	os.WriteFile(filepath.Join(dir, "src", "long.txt"), []byte(line+"\n"), 0o644)
	writePresent(dir, []claim{{path: "src/long.txt", anchor: `[a-y]{999}z`}})
	if err := gitInit(dir); err != nil {
		return nil, err
	}
	var printed []byte
	s, err = repeat(runs, func() (sample, error) {
		s, o, err := timeCmd(dir, nil, bin["claimslint"], "check")
		printed = o
		if err != nil && s.d > 0 {
			err = nil // the claim fails, by design: it was not run
		}
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("hostile regex: %v", err)
	}
	out = append(out, scaleCase{name: "`[a-y]{999}z` on one 4 MB line", checkS: s, target: "seconds, not minutes", limit: 10, note: firstLines(printed, 1)})
	os.RemoveAll(dir)
	return out, nil
}

// writePresent writes a register of present claims, 10 per decision.
func writePresent(dir string, claims []claim) {
	os.MkdirAll(filepath.Join(dir, "docs", "decisions"), 0o755)
	var prd strings.Builder
	nd := (len(claims) + 9) / 10
	fmt.Fprintf(&prd, "# Register\n\nLive range: D1..D%d.\n\n| ID | Decision | Status |\n|---|---|---|\n", nd)
	for d := 1; d <= nd; d++ {
		fmt.Fprintf(&prd, "| D%d | [Decision %d](decisions/D%d-gen.md) | accepted |\n", d, d, d)
		var dec strings.Builder
		fmt.Fprintf(&dec, "---\nid: D%d\nstatus: accepted\n---\n# D%d: Decision %d\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require |\n|---|---|---|---|---|\n", d, d, d)
		for k := (d - 1) * 10; k < min(d*10, len(claims)); k++ {
			fmt.Fprintf(&dec, "| C%d | present | `%s` | `%s` | |\n", k-(d-1)*10+1, claims[k].path, claims[k].anchor)
		}
		os.WriteFile(filepath.Join(dir, "docs", "decisions", fmt.Sprintf("D%d-gen.md", d)), []byte(dec.String()), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "docs", "PRD.md"), []byte(prd.String()), 0o644)
}

// prepareOnly writes the benchmark repositories of the real trees under
// dir, for timing other builds by hand (bench -prepare DIR).
func prepareOnly(dir string) error {
	trees := []realTree{goTree()}
	if rt, skip := rustTree(); skip == "" {
		trees = append(trees, rt)
	} else {
		logf("prepare: skipping the Rust tree: %s", skip)
	}
	for _, t := range trees {
		d := filepath.Join(dir, "real-"+t.as)
		rc, list, err := prepareReal(t, d)
		if err != nil {
			return err
		}
		logf("prepare: %s: %d files, %d claims on %d files; floor list %s", d, rc.files, rc.claims, rc.claimed, list)
	}
	return nil
}
