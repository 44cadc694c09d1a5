package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeBins names the commands timeRounds starts, for a run that only
// records them.
func fakeBins(t *testing.T) {
	old := bin
	bin = map[string]string{"floor": "floor", "claimslint": "claimslint"}
	t.Cleanup(func() { bin = old })
}

// TestTimeRoundsGateAmongRounds pins how a real tree is timed (D92): a
// warm-up round, then realRuns rounds of the floor, check and the reads
// alone, with the shell gate's gateRuns runs taken among the rounds at
// equal steps, not after them, where it would see a machine the rounds did
// not.
func TestTimeRoundsGateAmongRounds(t *testing.T) {
	fakeBins(t)
	var calls []string
	run := func(name string, args ...string) (sample, error) {
		what := name
		if name == "floor" && args[0] == "-no-git" {
			what = "reads"
		}
		calls = append(calls, what)
		return sample{d: time.Duration(len(calls)) * time.Millisecond}, nil
	}
	var rc realCase
	if err := rc.timeRounds(run, "dir", "list"); err != nil {
		t.Fatal(err)
	}
	if rc.checkS.n != realRuns || rc.floorS.n != realRuns || rc.readsS.n != realRuns || rc.gateS.n != gateRuns {
		t.Fatalf("samples: check %d, floor %d, reads %d, gate %d; want %d, %d, %d, %d",
			rc.checkS.n, rc.floorS.n, rc.readsS.n, rc.gateS.n, realRuns, realRuns, realRuns, gateRuns)
	}
	if got := strings.Join(calls[:3], " "); got != "floor claimslint reads" {
		t.Fatalf("first round %q, want the floor, check and the reads", got)
	}
	// The check runs between one gate and the next, and after the last.
	var gaps []int
	checks := 0
	for _, c := range calls {
		switch c {
		case "claimslint":
			checks++
		case "bash":
			gaps = append(gaps, checks)
			checks = 0
		}
	}
	if len(gaps) != gateRuns {
		t.Fatalf("%d gate runs, want %d: %v", len(gaps), gateRuns, calls)
	}
	if checks == 0 {
		t.Errorf("the gate ran after the last round (%v): it must run among them", calls)
	}
	for i := 1; i < len(gaps); i++ {
		if gaps[i] != realRuns/gateRuns {
			t.Errorf("gate run %d came %d rounds after the one before, want %d: %v", i+1, gaps[i], realRuns/gateRuns, gaps)
		}
	}
}

// TestTimeRoundsNamesWhatFailed: a command that fails stops the timing
// with an error naming it.
func TestTimeRoundsNamesWhatFailed(t *testing.T) {
	fakeBins(t)
	for _, tc := range []struct{ fail, want string }{
		{"floor", "floor:"},
		{"reads", "floor -no-git:"},
		{"bash", "shell gate:"},
	} {
		run := func(name string, args ...string) (sample, error) {
			what := name
			if name == "floor" && args[0] == "-no-git" {
				what = "reads"
			}
			if what == tc.fail {
				return sample{}, errors.New("exit status 1")
			}
			return sample{d: time.Millisecond}, nil
		}
		var rc realCase
		err := rc.timeRounds(run, "dir", "list")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s failing: error %v, want one starting %q", tc.fail, err, tc.want)
		}
	}
}
