package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestJudge: the guard's rule on planted sample sets. Slower means a
// median more than 15% above the base's AND no overlap of the spreads.
func TestJudge(t *testing.T) {
	t.Parallel()
	base := []float64{100, 104, 98, 101, 110, 99, 102}
	tests := []struct {
		name  string
		head  []float64
		worse bool
	}{
		{"the same", []float64{101, 99, 103, 100, 98, 105, 102}, false},
		{"faster", []float64{70, 72, 69, 75, 71, 70, 73}, false},
		{"30% slower every run", []float64{130, 131, 128, 135, 129, 140, 132}, true},
		{"twice as slow", []float64{200, 210, 205, 198, 220, 201, 203}, true},
		{"10% slower every run: within the slack", []float64{111, 112, 110.5, 113, 111, 112, 114}, false},
		{"30% slower median, one fast run: its spread is the rest", []float64{130, 131, 105, 135, 129, 140, 132}, true},
		{"30% slower median, two fast runs overlap", []float64{130, 131, 100, 135, 103, 140, 132}, false},
		{"one slow outlier", []float64{101, 99, 400, 100, 98, 105, 102}, false},
		{"one stalled base run does not hide a slowdown", []float64{200, 210, 205, 198, 220, 201, 203}, true},
	}
	for _, tc := range tests {
		if _, worse := judge(base, tc.head); worse != tc.worse {
			t.Errorf("%s: worse = %v, want %v", tc.name, worse, tc.worse)
		}
	}
	// A noisy base whose slowest runs are past every head run: not worse.
	if _, worse := judge([]float64{100, 100, 100, 300, 300}, []float64{150, 150, 150, 150, 150}); worse {
		t.Error("spreads overlap, yet judged worse")
	}
	// A base with one stalled run, and a head slower every run.
	if _, worse := judge([]float64{90, 88, 693, 91, 89, 92, 90}, []float64{350, 354, 292, 360, 544, 351, 349}); !worse {
		t.Error("a stalled base run hid a slowdown of every head run")
	}
	if r, worse := judge(nil, []float64{1}); r != 0 || worse {
		t.Error("no base runs, yet judged")
	}
}

// TestGuardConfirms: a workload judged slower is measured again, and
// fails the guard only when the second measurement is slower too. The
// runs are planted: no timing.
func TestGuardConfirms(t *testing.T) {
	t.Parallel()
	const n = 7
	jitter := []float64{0, 3, -2, 1, 4, -1, 2, -3}
	fake := func(slowHeadRuns int, cpuOnly bool) workload {
		calls := map[string]int{}
		return workload{name: "fake", unit: "ms", run: func(s side) (float64, time.Duration, error) {
			k := calls[s.name]
			calls[s.name]++
			x := 100 + jitter[k%len(jitter)]
			if s.name == "head" && (slowHeadRuns < 0 || k < slowHeadRuns) {
				if cpuOnly {
					return x, time.Duration(x*1.5) * time.Millisecond, nil
				}
				x *= 1.5
			}
			return x, time.Duration(x) * time.Millisecond, nil
		}}
	}
	base, head := side{name: "base"}, side{name: "head"}
	tests := []struct {
		name          string
		wl            workload
		fails, second bool
	}{
		{"alike: measured once", fake(0, false), false, false},
		{"slower in the first measurement only: noise", fake(n+1, false), false, true},
		{"slower in both", fake(-1, false), true, true},
		{"CPU slower in both", fake(-1, true), true, true},
		{"CPU slower in the first only", fake(n+1, true), false, true},
	}
	for _, tc := range tests {
		var b strings.Builder
		err := guard(&b, "base", base, head, []workload{tc.wl}, n)
		if got := errors.Is(err, errGuard); got != tc.fails || (err != nil && !got) {
			t.Errorf("%s: err %v, want failing %v; output:\n%s", tc.name, err, tc.fails, b.String())
		}
		if got := strings.Contains(b.String(), "fake (again)"); got != tc.second {
			t.Errorf("%s: measured again %v, want %v; output:\n%s", tc.name, got, tc.second, b.String())
		}
		if tc.second && !tc.fails && !strings.Contains(b.String(), "not slower the second time") {
			t.Errorf("%s: the output does not say the second measurement cleared it:\n%s", tc.name, b.String())
		}
	}
}

// TestGuardFailsOnPlantedSlowdown builds claimslint twice from this tree,
// once with -tags benchplant (which starts 250 ms late), and runs the
// guard's check workload on a generated tree: the guard must fail and
// name it. The same build without the tag against itself must pass.
func TestGuardFailsOnPlantedSlowdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tools twice and times them")
	}
	wd := t.TempDir()
	old := workDir
	workDir = wd
	t.Cleanup(func() { workDir = old })
	r, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	*root = r
	plain := side{name: "plain"}
	slow := side{name: "planted"}
	if err := buildSide(&plain, r, ""); err != nil {
		t.Fatal(err)
	}
	if err := buildSide(&slow, r, "benchplant"); err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(wd, "gen")
	wl := []workload{{
		name: "check, planted", unit: "ms",
		prepare: func() error { _, err := genRepo(gen, 300, 30); return err },
		run: func(s side) (float64, time.Duration, error) {
			smp, out, err := timeCmd(gen, nil, s.claimslint, "check")
			if err != nil {
				return 0, 0, errors.New(string(out))
			}
			return float64(smp.d.Microseconds()) / 1000, smp.cpu, nil
		},
	}}
	var b strings.Builder
	err = guard(&b, "plain", plain, slow, wl, 9)
	if !errors.Is(err, errGuard) || !strings.Contains(b.String(), "FAIL: slower than plain") || !strings.Contains(b.String(), "check, planted (") {
		t.Fatalf("guard on a planted 250 ms: err %v, output:\n%s", err, b.String())
	}
	b.Reset()
	if err := guard(&b, "plain", plain, plain, wl, 9); err != nil {
		t.Fatalf("guard of a build against itself: %v\n%s", err, b.String())
	}
}
