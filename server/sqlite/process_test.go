package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/docket"
)

// TestMain doubles as a writer process: the concurrency and crash tests
// start this test binary again with DOCKET_WORKER set, so every writer is
// its own process with its own connections, as several agents would be.
func TestMain(m *testing.M) {
	if mode := os.Getenv("DOCKET_WORKER"); strings.HasPrefix(mode, "step:") {
		os.Exit(stepWorker(strings.TrimPrefix(mode, "step:")))
	} else if mode != "" {
		os.Exit(worker(mode))
	}
	os.Exit(m.Run())
}

// worker runs ops creates and updates (alternating; updates name a version
// read just before, so some lose to another process) and prints one line
// per outcome: "created ID", "updated ID", "conflict ID". With ops = 0 it
// creates until killed.
func worker(mode string) int {
	ctx := context.Background()
	ops, _ := strconv.Atoi(os.Getenv("DOCKET_OPS"))
	s, err := Open(ctx, Options{DB: os.Getenv("DOCKET_DB"), Export: os.Getenv("DOCKET_EXPORT")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	defer s.Close()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var mine []string
	for k := 0; ops == 0 || k < ops; k++ {
		if mode == "crash" || k%2 == 0 || len(mine) == 0 {
			i, err := s.Create(ctx, docket.NewIssue{Title: fmt.Sprintf("w%d op %d", os.Getpid(), k)})
			if err != nil {
				fmt.Fprintln(os.Stderr, "create:", err)
				return 4
			}
			mine = append(mine, i.ID)
			fmt.Fprintln(out, "created", i.ID)
			if mode == "crash" {
				out.Flush() // the parent must see every id that was acknowledged
			}
			continue
		}
		// Update a random issue, possibly another worker's.
		all, err := s.List(ctx, docket.Filter{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "list:", err)
			return 4
		}
		target := all[rand.IntN(len(all))]
		p := rand.IntN(docket.MaxPriority + 1)
		_, err = s.Update(ctx, target.ID, docket.Patch{Priority: &p, IfVersion: target.Version})
		var ce *docket.ConflictError
		switch {
		case err == nil:
			fmt.Fprintln(out, "updated", target.ID)
		case errors.As(err, &ce):
			fmt.Fprintln(out, "conflict", target.ID)
		default:
			fmt.Fprintln(os.Stderr, "update:", err)
			return 4
		}
	}
	return 0
}

func workerCmd(e *env, mode string, ops int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOCKET_WORKER="+mode, "DOCKET_OPS="+strconv.Itoa(ops), "DOCKET_DB="+e.db, "DOCKET_EXPORT="+e.export)
	return cmd
}

// TestConcurrentProcesses: 8 processes, 200 operations each, on one
// tracker. Every operation succeeds or reports a conflict, ids are unique,
// the export holds exactly what the index holds, and every successful
// update shows up as one version bump.
func TestConcurrentProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts 8 processes")
	}
	e := newEnv(t)
	s := e.open(t, "dk")
	s.Close()
	runMixed(t, e, 8, 200, nil)
}

// TestCorruptIndexConcurrentOpen: 8 processes start at once on an index
// overwritten with garbage (dk-1wf). Exactly one moves it aside and
// rebuilds it; the others wait for that and use the rebuilt index. When two
// recovered it, the second moved the first's fresh index aside (or failed
// to find it) and removed its write-ahead log, and the two then wrote under
// locks on different files: a created issue went missing from the export,
// or an id was handed out twice.
func TestCorruptIndexConcurrentOpen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts 8 processes")
	}
	e := newEnv(t)
	before := createTwo(t, e)
	if err := os.WriteFile(e.db, bytes.Repeat([]byte("not a database "), 512), 0o644); err != nil {
		t.Fatal(err)
	}
	runMixed(t, e, 8, 20, before)
	if _, err := os.Stat(e.db + ".corrupt"); err != nil {
		t.Errorf("the damaged index was not kept aside: %v", err)
	}
}

// TestFreshCloneConcurrentOpen: 8 processes start at once beside an
// export and no index, as on a fresh clone. One builds the index from the
// export and records the prefix its ids carry; one that read the prefix
// before that and found the index already in line must still learn it
// (dk-1wf: "this tracker has no id prefix yet").
func TestFreshCloneConcurrentOpen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts 8 processes")
	}
	e := newEnv(t)
	before := createTwo(t, e)
	for _, f := range []string{e.db, e.db + "-wal", e.db + "-shm"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	runMixed(t, e, 8, 20, before)
}

// createTwo creates two issues in e's tracker, closed again, and returns
// their ids.
func createTwo(t *testing.T, e *env) []string {
	t.Helper()
	s := e.open(t, "dk")
	defer s.Close()
	var ids []string
	for _, title := range []string{"one", "two"} {
		i, err := s.Create(context.Background(), docket.NewIssue{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, i.ID)
	}
	return ids
}

// runMixed runs procs worker processes of ops mixed operations each on e's
// tracker, which holds the issues before, and checks the outcome: every
// worker succeeded, no id was handed out twice, the export holds exactly
// the issues before and the ones created and equals what the index would
// write, and every successful update is one version bump.
func runMixed(t *testing.T, e *env, procs, ops int, before []string) {
	t.Helper()
	cmds := make([]*exec.Cmd, procs)
	outs := make([]*bytes.Buffer, procs)
	errs := make([]*bytes.Buffer, procs)
	for k := range cmds {
		cmds[k] = workerCmd(e, "mixed", ops)
		outs[k], errs[k] = &bytes.Buffer{}, &bytes.Buffer{}
		cmds[k].Stdout, cmds[k].Stderr = outs[k], errs[k]
		if err := cmds[k].Start(); err != nil {
			t.Fatal(err)
		}
	}
	created := map[string]bool{}
	for _, id := range before {
		created[id] = true
	}
	updates, conflicts := 0, 0
	for k, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("worker %d: %v\n%s", k, err, errs[k])
		}
		lines := strings.Split(strings.TrimSpace(outs[k].String()), "\n")
		if len(lines) != ops {
			t.Errorf("worker %d reported %d outcomes, want %d", k, len(lines), ops)
		}
		for _, l := range lines {
			verb, id, _ := strings.Cut(l, " ")
			switch verb {
			case "created":
				if created[id] {
					t.Errorf("id %s handed out twice", id)
				}
				created[id] = true
			case "updated":
				updates++
			case "conflict":
				conflicts++
			}
		}
	}
	t.Logf("%d created, %d updated, %d conflicts", len(created)-len(before), updates, conflicts)
	s2 := e.open(t, "")
	agree(t, s2, e)
	issues, err := docket.ReadJSONL(e.export, bytes.NewReader(e.file(t)), "dk")
	if err != nil {
		t.Fatal(err)
	}
	if len(issues) != len(created) {
		t.Errorf("export holds %d issues, want %d (%d before and %d created)", len(issues), len(created), len(before), len(created)-len(before))
	}
	bumps := 0
	for _, i := range issues {
		if !created[i.ID] {
			t.Errorf("export holds %s, which no worker created", i.ID)
		}
		bumps += int(i.Version - 1)
	}
	if bumps != updates {
		t.Errorf("versions were bumped %d times, workers report %d successful updates: a write was lost", bumps, updates)
	}
}

// TestSIGKILLMidWrite kills a writer at random points while it creates
// issues; after each kill the next start must leave index and export in
// agreement, holding every id the writer acknowledged.
func TestSIGKILLMidWrite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	e := newEnv(t)
	s := e.open(t, "dk")
	s.Close()
	acked := map[string]bool{}
	for round := range 6 {
		cmd := workerCmd(e, "crash", 0)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		done := make(chan struct{})
		first := make(chan struct{}) // closed at the round's first acknowledgement
		go func() {
			defer close(done)
			n := 0
			for sc.Scan() {
				_, id, _ := strings.Cut(sc.Text(), " ")
				acked[id] = true
				if n++; n == 1 {
					close(first)
				}
			}
		}()
		// The kill lands at a random point of the writes, counted from the
		// first acknowledged create rather than from the start: a worker
		// slowed by -race or a loaded machine would otherwise be killed
		// before it wrote anything, and the round would test nothing.
		select {
		case <-first:
		case <-done:
		case <-time.After(time.Minute):
			t.Errorf("round %d: no create acknowledged within a minute", round)
		}
		time.Sleep(time.Duration(rand.IntN(250)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-done
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: worker was not killed (%v): %s", round, err, stderr.String())
		}
		s := e.open(t, "")
		agree(t, s, e)
		issues, err := docket.ReadJSONL(e.export, bytes.NewReader(e.file(t)), "dk")
		if err != nil {
			t.Fatalf("round %d: export unreadable after SIGKILL: %v", round, err)
		}
		have := map[string]bool{}
		for _, i := range issues {
			have[i.ID] = true
		}
		for id := range acked {
			if !have[id] {
				t.Errorf("round %d: %s was acknowledged but is not in the export", round, id)
			}
		}
		s.Close()
	}
	if len(acked) < 6 {
		t.Errorf("only %d creates acknowledged over 6 rounds: the kills came too early to test anything", len(acked))
	}
	t.Logf("%d acknowledged creates over 6 kills", len(acked))
}
