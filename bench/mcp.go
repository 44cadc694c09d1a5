package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
	calls      int
	lost       int
	throughput float64 // replies per second
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

func benchMCP(rep *report) error {
	db, export, err := seedMCPStore()
	if err != nil {
		return err
	}
	env := []string{"DOCKET_DB=" + db, "DOCKET_EXPORT=" + export}
	servers := []struct {
		name string
		argv []string
	}{
		{"docket mcp", []string{bin["docket"], "mcp"}},
		{"go-sdk v1.8.0 stock stdio", []string{bin["sdkstock"]}},
		{"mcp-go v1.2.1 stdio", []string{bin["mcpgo"]}},
	}
	levels := []int{1, 64, 512}
	dur := 10 * time.Second
	maxCalls := 100000
	if *quick {
		levels = []int{1, 64}
		dur = 2 * time.Second
	}
	for _, lv := range levels {
		for _, s := range servers {
			logf("mcp: %s at %d in flight", s.name, lv)
			res, err := loadMCP(s.argv, env, lv, dur, maxCalls)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			res.server = s.name
			rep.mcp = append(rep.mcp, res)
		}
	}
	return nil
}

// loadMCP drives one server: a handshake, then tools/call issue_show with
// inflight requests outstanding at all times, for dur or maxCalls calls.
// Every reply is matched to its request by id; a request with no reply
// after the run plus 10 s is lost.
func loadMCP(argv, env []string, inflight int, dur time.Duration, maxCalls int) (mcpResult, error) {
	res := mcpResult{inflight: inflight}
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
		ID json.RawMessage `json:"id"`
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
			if json.Unmarshal(r.ID, &id) != nil {
				continue
			}
			mu.Lock()
			if t, ok := sentAt[id]; ok {
				lat = append(lat, time.Since(t))
				delete(sentAt, id)
				received++
				mu.Unlock()
				<-slots
				continue
			}
			mu.Unlock()
		}
	}()
	start := time.Now()
	var sent int64
	for time.Since(start) < dur && sent < int64(maxCalls) {
		select {
		case slots <- struct{}{}:
		case <-time.After(10 * time.Second):
			// The server owes replies it is not sending: stop and count them.
			sent = -sent
		}
		if sent < 0 {
			sent = -sent
			break
		}
		sent++
		mu.Lock()
		sentAt[sent] = time.Now()
		mu.Unlock()
		if err := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`, sent)); err != nil {
			return res, fmt.Errorf("write: %w (%s)", err, stderr.String())
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
		time.Sleep(5 * time.Millisecond)
	}
	elapsed := time.Since(start)
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
	mu.Lock()
	defer mu.Unlock()
	res.calls = int(sent)
	res.lost = len(sentAt)
	res.throughput = float64(received) / elapsed.Seconds()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		res.p50 = lat[len(lat)/2]
		res.p99 = lat[len(lat)*99/100]
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		res.rssKiB = ru.Maxrss
	}
	return res, nil
}
