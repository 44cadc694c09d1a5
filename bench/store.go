package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/claimslint/claimslint/server"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
)

type storeCase struct {
	n                                     int
	sparse                                bool // 1% open
	create, update, list, ready, exportOp stats
	exportBytes                           int
}

type writersResult struct {
	procs, ops        int
	wall              time.Duration
	ok, conflicts     int
	opsPerSec         float64
	exportAgrees      bool
	exportIssues, ids int
}

// seedStore imports n issues; closedEvery > 0 closes every issue whose
// index is not a multiple of it (most of a mature tracker is closed),
// otherwise a fifth are closed.
func seedStore(dir string, n, openEvery int) (*docket.Service, []string, error) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, sqlite.Options{DB: filepath.Join(dir, "index.db"), Export: filepath.Join(dir, "issues.jsonl"), Prefix: "dk"})
	if err != nil {
		return nil, nil, err
	}
	set := &server.ImportSet{}
	ids := make([]string, n)
	for k := range n {
		ids[k] = "dk-" + strconv.FormatInt(int64(k+36*36*36), 36)
	}
	for k := range n {
		i := server.Issue{ID: ids[k], Title: fmt.Sprintf("issue number %d with a title of ordinary length", k),
			Description: "A description of a few words, as most issues have.",
			Status:      server.StatusOpen, Type: server.TypeTask, Priority: k % 5,
			Labels: []string{"area-" + strconv.Itoa(k%7)}, Decisions: []string{fmt.Sprintf("D%d", 1+k%20)},
			CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: server.Schema}
		if (openEvery == 0 && k%5 == 0) || (openEvery > 0 && k%openEvery != 0) {
			c := "2026-01-02T00:00:00Z"
			i.Status, i.ClosedAt, i.CloseReason = server.StatusClosed, &c, "done"
		}
		if k%10 == 1 && k+1 < n {
			i.Deps = []server.Dep{{Type: server.DepBlocks, ID: ids[k+1]}}
		}
		i.Normalize()
		set.Issues = append(set.Issues, i)
	}
	if _, err := s.Import(ctx, set); err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, ids, nil
}

func timeOp(fn func() error) (sample, error) {
	start := time.Now()
	err := fn()
	return sample{d: time.Since(start)}, err
}

func benchStore(rep *report) error {
	ctx := context.Background()
	sizes := []int{10000, 100000}
	runs := 5
	if *quick {
		sizes = []int{10000}
		runs = 3
	}
	for _, n := range sizes {
		logf("store: seeding %d issues", n)
		dir := filepath.Join(workDir, fmt.Sprintf("store-%d", n))
		s, ids, err := seedStore(dir, n, 0)
		if err != nil {
			return err
		}
		sc := storeCase{n: n}
		// Reads first, on a tracker at rest: the export is older than the
		// racy window, so a read trusts its size and mtime instead of
		// hashing it (a tracker is read far more often than written).
		time.Sleep(1500 * time.Millisecond)
		ops := []struct {
			dst *stats
			fn  func() error
		}{
			{&sc.list, func() error {
				_, err := s.List(ctx, server.Filter{Status: []server.Status{server.StatusOpen}})
				return err
			}},
			{&sc.ready, func() error { _, err := s.Ready(ctx); return err }},
			{&sc.create, func() error { _, err := s.Create(ctx, server.NewIssue{Title: "benchmark issue"}); return err }},
			{&sc.update, func() error {
				p := rand.IntN(5)
				_, err := s.Update(ctx, ids[rand.IntN(len(ids))], server.Patch{Priority: &p})
				return err
			}},
			{&sc.exportOp, func() error { return s.RewriteExport(ctx) }},
		}
		for _, op := range ops {
			st, err := repeat(runs, func() (sample, error) { return timeOp(op.fn) })
			if err != nil {
				s.Close()
				return err
			}
			*op.dst = st
		}
		if b, err := os.ReadFile(filepath.Join(dir, "issues.jsonl")); err == nil {
			sc.exportBytes = len(b)
		}
		s.Close()
		os.RemoveAll(dir)
		rep.store = append(rep.store, sc)
	}
	if !*quick {
		// A mature tracker: 100k issues, 1% of them open.
		n := 100000
		logf("store: seeding %d issues, 1%% open", n)
		dir := filepath.Join(workDir, "store-sparse")
		s, _, err := seedStore(dir, n, 100)
		if err != nil {
			return err
		}
		sc := storeCase{n: n, sparse: true}
		time.Sleep(1500 * time.Millisecond) // at rest, as above
		if sc.list, err = repeat(runs, func() (sample, error) {
			return timeOp(func() error {
				_, err := s.List(ctx, server.Filter{Status: []server.Status{server.StatusOpen}})
				return err
			})
		}); err != nil {
			return err
		}
		if sc.ready, err = repeat(runs, func() (sample, error) {
			return timeOp(func() error { _, err := s.Ready(ctx); return err })
		}); err != nil {
			return err
		}
		s.Close()
		os.RemoveAll(dir)
		rep.store = append(rep.store, sc)
	}
	w, err := benchWriters()
	if err != nil {
		return err
	}
	rep.writers = w
	return nil
}

// benchWriters starts 8 writer processes (this binary, -worker) on one
// fresh tracker, each creating and updating issues, and checks afterwards
// that the export holds exactly what the index holds.
func benchWriters() (writersResult, error) {
	const procs = 8
	ops := 200
	if *quick {
		ops = 50
	}
	dir := filepath.Join(workDir, "writers")
	s, err := sqlite.Open(context.Background(), sqlite.Options{DB: filepath.Join(dir, "index.db"), Export: filepath.Join(dir, "issues.jsonl"), Prefix: "dk"})
	if err != nil {
		return writersResult{}, err
	}
	s.Close()
	logf("store: %d writer processes x %d operations", procs, ops)
	res := writersResult{procs: procs, ops: ops}
	cmds := make([]*exec.Cmd, procs)
	outs := make([]strings.Builder, procs)
	start := time.Now()
	for k := range cmds {
		c := exec.Command(bin["self"], "-worker")
		c.Env = append(os.Environ(), "DOCKET_DB="+filepath.Join(dir, "index.db"), "DOCKET_EXPORT="+filepath.Join(dir, "issues.jsonl"), "DOCKET_OPS="+strconv.Itoa(ops))
		c.Stdout, c.Stderr = &outs[k], &outs[k]
		if err := c.Start(); err != nil {
			return res, err
		}
		cmds[k] = c
	}
	ids := map[string]bool{}
	for k, c := range cmds {
		if err := c.Wait(); err != nil {
			return res, fmt.Errorf("writer %d: %v\n%s", k, err, outs[k].String())
		}
		for _, l := range strings.Split(strings.TrimSpace(outs[k].String()), "\n") {
			verb, id, _ := strings.Cut(l, " ")
			switch verb {
			case "created":
				ids[id] = true
				res.ok++
			case "updated":
				res.ok++
			case "conflict":
				res.conflicts++
			}
		}
	}
	res.wall = time.Since(start)
	res.opsPerSec = float64(res.ok+res.conflicts) / res.wall.Seconds()
	s, err = sqlite.Open(context.Background(), sqlite.Options{DB: filepath.Join(dir, "index.db"), Export: filepath.Join(dir, "issues.jsonl")})
	if err != nil {
		return res, err
	}
	defer s.Close()
	want, err := s.Export(context.Background())
	if err != nil {
		return res, err
	}
	have, _ := os.ReadFile(filepath.Join(dir, "issues.jsonl"))
	res.exportAgrees = string(want) == string(have)
	res.exportIssues = strings.Count(string(have), "\n")
	res.ids = len(ids)
	return res, nil
}

// storeWorker is one writer process of benchWriters.
func storeWorker() int {
	ctx := context.Background()
	ops, _ := strconv.Atoi(os.Getenv("DOCKET_OPS"))
	s, err := sqlite.Open(ctx, sqlite.Options{DB: os.Getenv("DOCKET_DB"), Export: os.Getenv("DOCKET_EXPORT")})
	if err != nil {
		fmt.Println("open:", err)
		return 3
	}
	defer s.Close()
	var mine []string
	for k := range ops {
		if k%2 == 0 || len(mine) == 0 {
			i, err := s.Create(ctx, server.NewIssue{Title: fmt.Sprintf("w%d op %d", os.Getpid(), k)})
			if err != nil {
				fmt.Println("create:", err)
				return 4
			}
			mine = append(mine, i.ID)
			fmt.Println("created", i.ID)
			continue
		}
		all, err := s.List(ctx, server.Filter{})
		if err != nil {
			fmt.Println("list:", err)
			return 4
		}
		t := all[rand.IntN(len(all))]
		p := rand.IntN(5)
		_, err = s.Update(ctx, t.ID, server.Patch{Priority: &p, IfVersion: t.Version})
		var ce *server.ConflictError
		switch {
		case err == nil:
			fmt.Println("updated", t.ID)
		case errors.As(err, &ce):
			fmt.Println("conflict", t.ID)
		default:
			fmt.Println("update:", err)
			return 4
		}
	}
	return 0
}
