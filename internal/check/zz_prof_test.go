package check

import (
	"os"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/snapshot"
)

func TestZZPhases(t *testing.T) {
	dir := os.Getenv("PROFDIR")
	if dir == "" {
		t.Skip()
	}
	for i := 0; i < 5; i++ {
		t0 := time.Now()
		snap, err := snapshot.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		res, err := RunRules(snap, Options{Dir: dir}, Rules...)
		if err != nil {
			t.Fatal(err)
		}
		t2 := time.Now()
		t.Logf("load %v rules %v findings %d claims %d", t1.Sub(t0), t2.Sub(t1), len(res.Findings), len(res.Claims))
		if i == 4 {
			res := &Result{Snapshot: snap, budget: DefaultBudget}
			res.deadline = time.Now().Add(time.Hour)
			for _, rule := range Rules {
				t3 := time.Now()
				rule.Run(&Pass{Rule: rule, Snap: snap, Opts: Options{Dir: dir}, res: res})
				t.Logf("%s %v", rule.ID, time.Since(t3))
			}
		}
	}
}
