package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/sqlite"
)

type mcpResult struct {
	server     string
	inflight   int
	malformed  bool    // every tenth frame sent is not JSON
	rounds     int     // runs the figures are the median of
	calls      int     // well-formed requests sent
	bad        int     // malformed frames sent
	lost       int     // requests never answered
	dup        int     // second replies to one request
	stray      int     // replies to an id never sent
	parseErrs  int     // error replies with id null: the malformed frames answered
	exited     bool    // the server ended the session before the run did
	throughput float64 // replies to well-formed requests per second (median)
	tputMin    float64
	tputMax    float64
	cpuPerCall time.Duration // the server's user + system time per reply (median)
	p50, p99   time.Duration
	rssKiB     int64
}

// seedMCPStore makes a tracker of 100 issues, dk-aaa among them.
func seedMCPStore() (db, export string, err error) {
	set := &docket.ImportSet{}
	for k := range 100 {
		id := fmt.Sprintf("dk-a%02d", k)
		if k == 0 {
			id = "dk-aaa"
		}
		i := docket.Issue{ID: id, Title: fmt.Sprintf("issue %d", k), Status: docket.StatusOpen, Type: docket.TypeTask, Priority: 2,
			CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: docket.Schema}
		i.Normalize()
		set.Issues = append(set.Issues, i)
	}
	return seedStore1(filepath.Join(workDir, "mcp-store"), set)
}

// seedStore1 makes a tracker with prefix dk in dir from one import of set,
// and returns its index and export paths.
func seedStore1(dir string, set *docket.ImportSet) (db, export string, err error) {
	db, export = filepath.Join(dir, "index.db"), filepath.Join(dir, "issues.jsonl")
	ctx := context.Background()
	s, err := docket.Open(ctx, sqlite.Backend{DB: db}, docket.Options{Export: export, Prefix: "dk"})
	if err != nil {
		return "", "", err
	}
	defer s.Close()
	_, err = s.Import(ctx, set)
	return db, export, err
}

// mcpBefore, if set, is a docket binary of an earlier commit, run beside
// the others as "docket mcp (before)": a before-and-after in one run.
var mcpBefore = flag.String("mcp-before", "", "with --only mcp or stdio: also run this docket binary (an earlier build) as \"docket mcp (before)\"")

// mcpServers are the stdio servers compared: docket mcp and the two
// baselines, each serving issue_show over the same store.
type mcpServer struct {
	name, argv0 string
	args        []string
}

func mcpServers() []mcpServer {
	out := []mcpServer{
		{"docket mcp", bin["docket"], []string{"mcp"}},
		{"go-sdk v1.8.0 stock stdio", bin["sdkstock"], nil},
		{"mcp-go v1.2.1 stdio", bin["mcpgo"], nil},
	}
	if *mcpBefore != "" {
		out = append(out, mcpServer{"docket mcp (before)", *mcpBefore, []string{"mcp"}})
	}
	return out
}

// benchMCP runs each server at 1, 64 and 512 in flight: rounds runs with
// well-formed frames only, the servers taking turns so that load which
// drifts over the run moves all of them alike, then one run with every
// tenth frame malformed. The figures of the well-formed runs are medians.
func benchMCP(rep *report) error {
	db, export, err := seedMCPStore()
	if err != nil {
		return err
	}
	env := []string{"DOCKET_DB=" + db, "DOCKET_EXPORT=" + export}
	levels := []int{1, 64, 512}
	dur := 5 * time.Second
	rounds := 3
	maxCalls := 100000
	if *quick {
		levels = []int{1, 64}
		dur = 2 * time.Second
		rounds = 1
	}
	servers := mcpServers()
	for _, lv := range levels {
		runs := make([][]mcpResult, len(servers))
		for round := range rounds {
			for k, s := range servers {
				logf("mcp: %s at %d in flight, round %d", s.name, lv, round+1)
				res, err := loadMCP(append([]string{s.argv0}, s.args...), env, lv, dur, maxCalls, false)
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				runs[k] = append(runs[k], res)
			}
		}
		for k, s := range servers {
			m := medianMCP(runs[k])
			m.server = s.name
			rep.mcp = append(rep.mcp, m)
		}
		for _, s := range servers {
			logf("mcp: %s at %d in flight, 10%% malformed", s.name, lv)
			res, err := loadMCP(append([]string{s.argv0}, s.args...), env, lv, dur, maxCalls, true)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			res.server, res.rounds = s.name, 1
			res.tputMin, res.tputMax = res.throughput, res.throughput
			rep.mcp = append(rep.mcp, res)
		}
	}
	return nil
}

// medianMCP is the run of median throughput, with the other runs' range,
// its counts summed over every run.
func medianMCP(rs []mcpResult) mcpResult {
	sorted := slices.Clone(rs)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].throughput < sorted[j].throughput })
	m := sorted[len(sorted)/2]
	m.rounds, m.tputMin, m.tputMax = len(rs), sorted[0].throughput, sorted[len(sorted)-1].throughput
	cpus := make([]time.Duration, len(rs))
	m.lost, m.dup, m.stray, m.parseErrs = 0, 0, 0, 0
	for k, r := range rs {
		cpus[k] = r.cpuPerCall
		m.lost += r.lost
		m.dup += r.dup
		m.stray += r.stray
		m.parseErrs += r.parseErrs
		m.exited = m.exited || r.exited
		m.rssKiB = max(m.rssKiB, r.rssKiB)
	}
	slices.Sort(cpus)
	m.cpuPerCall = cpus[len(cpus)/2]
	return m
}

// badFrame is a malformed frame: a tools/call cut short, not JSON. A
// server must answer it with a parse error (id null) and go on.
func badFrame(n int64) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"bad-%d","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}`, n)
}

// loadMCP drives one server: a handshake, then tools/call issue_show with
// inflight requests outstanding at all times, for dur or maxCalls calls;
// with malformed, a malformed frame follows every ninth request (10% of
// the frames). Every reply is matched to its request by id: a second reply
// to one is a duplicate, a request with no reply after the run plus 10 s
// (or when the server ends the session) is lost.
func loadMCP(argv, env []string, inflight int, dur time.Duration, maxCalls int, malformed bool) (mcpResult, error) {
	res := mcpResult{inflight: inflight, malformed: malformed, rounds: 1}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	// Outside any repository: inside one, docket's files must lie beneath
	// it (D67), and the store is in the work directory.
	cmd.Dir = workDir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return res, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return res, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return res, err
	}
	w := bufio.NewWriter(stdin)
	var wmu sync.Mutex
	send := func(s string) error {
		wmu.Lock()
		defer wmu.Unlock()
		if _, err := w.WriteString(s + "\n"); err != nil {
			return err
		}
		return w.Flush()
	}
	type reply struct {
		ID    json.RawMessage `json:"id"`
		Error json.RawMessage `json:"error"`
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	if err := send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`); err != nil {
		return res, err
	}
	if !sc.Scan() {
		return res, fmt.Errorf("no initialize reply: %s", stderr.String())
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return res, err
	}
	var mu sync.Mutex
	sentAt := map[int64]time.Time{}
	answered := map[int64]bool{}
	var lat []time.Duration
	received := 0
	slots := make(chan struct{}, inflight)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for sc.Scan() {
			var r reply
			if json.Unmarshal(sc.Bytes(), &r) != nil {
				continue
			}
			var id int64
			if string(r.ID) == "null" || json.Unmarshal(r.ID, &id) != nil {
				mu.Lock()
				if string(r.ID) == "null" && r.Error != nil {
					res.parseErrs++
				} else {
					res.stray++
				}
				mu.Unlock()
				continue
			}
			mu.Lock()
			if t, ok := sentAt[id]; ok {
				lat = append(lat, time.Since(t))
				delete(sentAt, id)
				answered[id] = true
				received++
				mu.Unlock()
				<-slots
				continue
			}
			if answered[id] {
				res.dup++
			} else {
				res.stray++
			}
			mu.Unlock()
		}
	}()
	start := time.Now()
	var sent int64
	var last time.Time // when the last reply counted arrived
loop:
	for time.Since(start) < dur && sent < int64(maxCalls) {
		select {
		case slots <- struct{}{}:
		case <-readDone:
			break loop // the server ended the session
		case <-time.After(10 * time.Second):
			break loop // the server owes replies it is not sending: count them
		}
		sent++
		mu.Lock()
		sentAt[sent] = time.Now()
		mu.Unlock()
		if err := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`, sent)); err != nil {
			break // the server is gone; its owed replies are lost
		}
		if malformed && sent%9 == 0 {
			res.bad++
			if send(badFrame(sent)) != nil {
				break
			}
		}
	}
	// Wait for the replies still owed, then end the session.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		left := len(sentAt)
		mu.Unlock()
		if left == 0 {
			break
		}
		select {
		case <-readDone:
			deadline = time.Now()
		case <-time.After(5 * time.Millisecond):
		}
	}
	last = time.Now()
	select {
	case <-readDone:
		res.exited = true
	default:
	}
	stdin.Close()
	go io.Copy(io.Discard, stdout)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	<-readDone
	mu.Lock()
	defer mu.Unlock()
	res.calls = int(sent)
	res.lost = len(sentAt)
	res.throughput = float64(received) / last.Sub(start).Seconds()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		res.p50 = lat[len(lat)/2]
		res.p99 = lat[len(lat)*99/100]
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		res.rssKiB = ru.Maxrss
		if received > 0 {
			res.cpuPerCall = time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) / time.Duration(received)
		}
	}
	return res, nil
}
