package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/stdio"
	"github.com/claimslint/claimslint/server/sqlite"
)

type storeCase struct {
	n                                     int
	sparse                                bool // 1% open
	create, update, list, ready, exportOp stats
	list50, ready50                       stats // one page of 50, from index columns
	exportBytes                           int
	pageBytes                             int // the default issue_list reply
	listings                              []listingCase
}

// listingCase is one listing's default page (50 rows) at n issues: warm,
// through the Store of a process that has the tracker open, and cold, as
// a docket process that opens it, reads the page and prints it.
type listingCase struct {
	name       string
	args       []string // docket's arguments
	view       docket.View
	params     docket.ListParams
	total      int // rows the query selects
	warm, cold stats
}

// listings are the pages measured at 100k issues: list, ready, blocked,
// and search for a word one issue has and for one every issue has.
func listings() []listingCase {
	return []listingCase{
		{name: "list", args: []string{"list"}, view: docket.ViewList},
		{name: "ready", args: []string{"ready"}, view: docket.ViewReady},
		{name: "blocked", args: []string{"blocked"}, view: docket.ViewBlocked},
		{name: "search (one match)", args: []string{"search", "12345"}, view: docket.ViewSearch, params: docket.ListParams{Text: "12345"}},
		{name: "search (every issue matches)", args: []string{"search", "ordinary"}, view: docket.ViewSearch, params: docket.ListParams{Text: "ordinary"}},
	}
}

// benchListings measures each listing warm in s, then, with s closed by
// the caller's close, cold as docket processes.
func benchListings(ctx context.Context, s *docket.Service, dir string, runs int, closeStore func()) ([]listingCase, error) {
	ls := listings()
	for k := range ls {
		l := &ls[k]
		l.params.Limit = docket.DefaultLimit // the CLI's and the MCP tools' default page
		st, err := repeat(runs, func() (sample, error) {
			return timeOp(func() error {
				p, err := s.Listing(ctx, l.view, l.params)
				l.total = p.Total
				return err
			})
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.name, err)
		}
		l.warm = st
	}
	closeStore()
	env := []string{"DOCKET_DB=" + filepath.Join(dir, "index.db"), "DOCKET_EXPORT=" + filepath.Join(dir, "issues.jsonl")}
	for k := range ls {
		l := &ls[k]
		st, err := repeat(runs, func() (sample, error) {
			smp, out, err := timeCmd(workDir, env, bin["docket"], l.args...)
			if err != nil {
				return smp, fmt.Errorf("docket %s: %v\n%s", strings.Join(l.args, " "), err, firstLines(out, 5))
			}
			return smp, nil
		})
		if err != nil {
			return nil, err
		}
		l.cold = st
	}
	return ls, nil
}

// importCase is one import of n beads-shaped records into a fresh
// tracker, and whether its export read back writes the same bytes.
type importCase struct {
	n      int
	s      stats
	stable bool
	bytes  int
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
	s, err := docket.Open(ctx, sqlite.Backend{DB: filepath.Join(dir, "index.db")}, docket.Options{Export: filepath.Join(dir, "issues.jsonl"), Prefix: "dk"})
	if err != nil {
		return nil, nil, err
	}
	set := &docket.ImportSet{}
	ids := make([]string, n)
	for k := range n {
		ids[k] = "dk-" + strconv.FormatInt(int64(k+36*36*36), 36)
	}
	for k := range n {
		i := docket.Issue{ID: ids[k], Title: fmt.Sprintf("issue number %d with a title of ordinary length", k),
			Description: "A description of a few words, as most issues have.",
			Status:      docket.StatusOpen, Type: docket.TypeTask, Priority: k % 5,
			Labels: []string{"area-" + strconv.Itoa(k%7)}, Decisions: []string{fmt.Sprintf("D%d", 1+k%20)},
			CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: docket.Schema}
		if (openEvery == 0 && k%5 == 0) || (openEvery > 0 && k%openEvery != 0) {
			c := "2026-01-02T00:00:00Z"
			i.Status, i.ClosedAt, i.CloseReason = docket.StatusClosed, &c, "done"
		}
		if k%10 == 1 && k+1 < n {
			i.Deps = []docket.Dep{{Type: docket.DepBlocks, ID: ids[k+1]}}
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

// timeOp times fn in this process: wall time, and the process's CPU time
// (user + system, every thread, the garbage collector's included), which
// says what the operation cost when the machine is shared.
func timeOp(fn func() error) (sample, error) {
	c0 := processCPU()
	start := time.Now()
	err := fn()
	return sample{d: time.Since(start), cpu: processCPU() - c0}, err
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
				_, err := s.List(ctx, docket.Filter{Status: []docket.Status{docket.StatusOpen}})
				return err
			}},
			{&sc.ready, func() error { _, err := s.Ready(ctx); return err }},
			{&sc.list50, func() error {
				_, err := s.Listing(ctx, docket.ViewList, docket.ListParams{Limit: 50})
				return err
			}},
			{&sc.ready50, func() error {
				_, err := s.Listing(ctx, docket.ViewReady, docket.ListParams{Limit: 50})
				return err
			}},
			{&sc.create, func() error { _, err := s.Create(ctx, docket.NewIssue{Title: "benchmark issue"}); return err }},
			{&sc.update, func() error {
				p := rand.IntN(5)
				_, err := s.Update(ctx, ids[rand.IntN(len(ids))], docket.Patch{Priority: &p})
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
		if sc.pageBytes, err = defaultPageBytes(s); err != nil {
			s.Close()
			return err
		}
		if n == 100000 || *quick {
			// Writes above made the export new: let it come to rest, as
			// the reads above did.
			time.Sleep(1500 * time.Millisecond)
			closed := false
			sc.listings, err = benchListings(ctx, s, dir, runs, func() { s.Close(); closed = true })
			if !closed {
				s.Close()
			}
			if err != nil {
				return err
			}
		} else {
			s.Close()
		}
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
				_, err := s.List(ctx, docket.Filter{Status: []docket.Status{docket.StatusOpen}})
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
	ic, err := benchImport(runs)
	if err != nil {
		return err
	}
	rep.imports = append(rep.imports, ic)
	w, err := benchWriters()
	if err != nil {
		return err
	}
	rep.writers = w
	return nil
}

// beadsLines writes n records in the shape beads' Go export writes:
// sub-second local times, issue_type, assignee, owner, created_by, notes on
// some, dependencies with created_at and created_by (blocks and
// parent-child, some on ids outside the file), comments on some, tombstones
// with their fields, hooked and hierarchical ids.
func beadsLines(n int) []byte {
	var b strings.Builder
	statuses := []string{"open", "closed", "closed", "hooked", "tombstone"}
	types := []string{"task", "bug", "feature", "epic", "event", "merge-request", "molecule"}
	for k := range n {
		id := fmt.Sprintf("bd-%04x", k)
		if k%10 == 3 {
			id = fmt.Sprintf("bd-%04x.%d", k-1, k%7)
		}
		st := statuses[k%len(statuses)]
		fmt.Fprintf(&b, `{"id":%q,"title":"Issue %d: make the sync path handle a renamed remote","description":"Steps:\n- run bd sync\n- rename the remote\n\nExpected: no error.",`, id, k)
		if k%8 == 0 {
			b.WriteString(`"notes":"Looked at it on Monday; the fetch path needs the same fix.",`)
		}
		fmt.Fprintf(&b, `"status":%q,"priority":%d,"issue_type":%q,"assignee":"beads/polecats/amber","owner":"dev@example.com",`, st, k%5, types[k%len(types)])
		fmt.Fprintf(&b, `"created_at":"2025-12-%02dT10:%02d:07.295058-08:00","created_by":"beads/crew/dave","updated_at":"2025-12-%02dT11:00:22.700641-08:00"`, 1+k%28, k%60, 1+k%28)
		if st == "closed" {
			fmt.Fprintf(&b, `,"closed_at":"2025-12-%02dT11:00:22.700641-08:00","close_reason":"Fixed"`, 1+k%28)
		}
		if k%3 == 0 && k > 0 {
			fmt.Fprintf(&b, `,"dependencies":[{"issue_id":%q,"depends_on_id":"bd-%04x","type":"blocks","created_at":"2025-12-01T10:00:00.1-08:00","created_by":"stevey"},{"issue_id":%q,"depends_on_id":"bd-%04x","type":"parent-child","created_at":"2025-12-01T10:00:00.1-08:00","created_by":"stevey"}]`, id, k-1, id, k+n)
		}
		if k%20 == 0 {
			fmt.Fprintf(&b, `,"comments":[{"id":%d,"issue_id":%q,"author":"stevey","text":"Seen again.","created_at":"2025-12-27T09:14:51Z"}]`, k, id)
		}
		if st == "tombstone" {
			b.WriteString(`,"deleted_at":"2025-12-25T01:21:01.952723-08:00","deleted_by":"batch delete","delete_reason":"batch delete","original_type":"task"`)
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}

// benchImport imports 10k beads-shaped records into a fresh tracker
// (decode, validate, one transaction, the export written), then imports
// that export into another fresh tracker and compares the bytes.
func benchImport(runs int) (importCase, error) {
	ctx := context.Background()
	const n = 10000
	data := beadsLines(n)
	ic := importCase{n: n, bytes: len(data)}
	var first []byte
	var err error
	ic.s, err = repeat(runs, func() (sample, error) {
		dir, err := os.MkdirTemp(workDir, "import-")
		if err != nil {
			return sample{}, err
		}
		defer os.RemoveAll(dir)
		s, err := docket.Open(ctx, sqlite.Backend{DB: filepath.Join(dir, "index.db")}, docket.Options{Export: filepath.Join(dir, "issues.jsonl"), Prefix: "bd"})
		if err != nil {
			return sample{}, err
		}
		defer s.Close()
		return timeOp(func() error {
			set, err := docket.DecodeImport("beads.jsonl", data, "", "bd", time.Now())
			if err != nil {
				return err
			}
			if _, err := s.Import(ctx, set); err != nil {
				return err
			}
			first, err = os.ReadFile(filepath.Join(dir, "issues.jsonl"))
			return err
		})
	})
	if err != nil {
		return ic, err
	}
	dir, err := os.MkdirTemp(workDir, "reimport-")
	if err != nil {
		return ic, err
	}
	defer os.RemoveAll(dir)
	s, err := docket.Open(ctx, sqlite.Backend{DB: filepath.Join(dir, "index.db")}, docket.Options{Export: filepath.Join(dir, "issues.jsonl"), Prefix: "bd"})
	if err != nil {
		return ic, err
	}
	defer s.Close()
	set, err := docket.DecodeImport("export", first, "", "bd", time.Now())
	if err != nil {
		return ic, err
	}
	if _, err := s.Import(ctx, set); err != nil {
		return ic, err
	}
	again, err := os.ReadFile(filepath.Join(dir, "issues.jsonl"))
	ic.stable = err == nil && string(again) == string(first)
	return ic, nil
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
	s, err := docket.Open(context.Background(), sqlite.Backend{DB: filepath.Join(dir, "index.db")}, docket.Options{Export: filepath.Join(dir, "issues.jsonl"), Prefix: "dk"})
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
	s, err = docket.Open(context.Background(), sqlite.Backend{DB: filepath.Join(dir, "index.db")}, docket.Options{Export: filepath.Join(dir, "issues.jsonl")})
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
	s, err := docket.Open(ctx, sqlite.Backend{DB: os.Getenv("DOCKET_DB")}, docket.Options{Export: os.Getenv("DOCKET_EXPORT")})
	if err != nil {
		fmt.Println("open:", err)
		return 3
	}
	defer s.Close()
	var mine []string
	for k := range ops {
		if k%2 == 0 || len(mine) == 0 {
			i, err := s.Create(ctx, docket.NewIssue{Title: fmt.Sprintf("w%d op %d", os.Getpid(), k)})
			if err != nil {
				fmt.Println("create:", err)
				return 4
			}
			mine = append(mine, i.ID)
			fmt.Println("created", i.ID)
			continue
		}
		all, err := s.List(ctx, docket.Filter{})
		if err != nil {
			fmt.Println("list:", err)
			return 4
		}
		t := all[rand.IntN(len(all))]
		p := rand.IntN(5)
		_, err = s.Update(ctx, t.ID, docket.Patch{Priority: &p, IfVersion: t.Version})
		var ce *docket.ConflictError
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

// defaultPageBytes is the size of the reply to a default issue_list call
// (no arguments) through docket's MCP server, in process over pipes.
func defaultPageBytes(s *docket.Service) (int, error) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"issue_list","arguments":{}}}
`)
	var out bytes.Buffer
	if err := stdio.Serve(context.Background(), mcp.New(mcp.Options{Store: s, Dir: workDir}), stdio.Options{In: in, Out: &out}); err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(out.Bytes(), []byte("\n")) {
		if bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":2,"result"`)) {
			return len(line) + 1, nil
		}
	}
	return 0, fmt.Errorf("no issue_list reply in %.300s", out.String())
}
