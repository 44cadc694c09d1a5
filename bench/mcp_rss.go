package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/claimslint/claimslint/server"
)

// rssCase is one client of the memory benchmark (D54).
type rssCase struct {
	name     string
	peaksKiB []int64 // one per run
	sent     int     // pipelined: requests sent at once
	replies  int     // pipelined: replies read, last run
	errors   int     // pipelined: error replies among them
	maxReply int     // pipelined: the largest reply line, bytes
	accepted int64   // never-reads: requests the pipe took
	dur      time.Duration
}

// rssPipelined is how many requests the pipelined client sends at once
// (fewer in a --quick smoke run).
var rssPipelined = 200

// rssDescription is the size of the one large issue's description.
const rssDescription = 5_000_000

// seedRSSStore makes a tracker with one issue, dk-big, whose description
// is 5 MB: every issue_show of it is a reply of about 4 MiB.
func seedRSSStore() (db, export string, err error) {
	i := server.Issue{ID: "dk-big", Title: "big", Description: strings.Repeat("x", rssDescription), Status: server.StatusOpen, Type: server.TypeTask, Priority: 2,
		CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: server.Schema}
	i.Normalize()
	return seedStore1(filepath.Join(workDir, "rss-store"), &server.ImportSet{Issues: []server.Issue{i}})
}

const (
	rssInit = `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	rssCall = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-big"}}}` + "\n"
)

// benchRSS measures docket mcp's peak RSS (its defaults: 4 in flight, a
// 128 MiB soft memory limit) against two clients: one that pipelines 200
// issue_show calls of the large issue and then reads every reply, and one
// that writes calls for a while and never reads its stdout.
func benchRSS(rep *report) error {
	db, export, err := seedRSSStore()
	if err != nil {
		return err
	}
	env := append(os.Environ(), "DOCKET_DB="+db, "DOCKET_EXPORT="+export)
	runs, dur := 3, 30*time.Second
	if *quick {
		runs, dur, rssPipelined = 1, 3*time.Second, 40
	}
	pc := rssCase{name: fmt.Sprintf("%d requests pipelined, then every reply read", rssPipelined)}
	for k := range runs {
		logf("rss: pipelined run %d/%d", k+1, runs)
		if err := rssPipelinedRun(env, &pc); err != nil {
			return fmt.Errorf("pipelined: %w", err)
		}
	}
	nc := rssCase{name: "never reads stdout, writes calls", dur: dur}
	logf("rss: a client that never reads, %s", dur)
	if err := rssNoReadRun(env, &nc); err != nil {
		return fmt.Errorf("never reads: %w", err)
	}
	rep.rss = []rssCase{pc, nc}
	return nil
}

func startRSS(env []string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, error) {
	cmd := exec.Command(bin["docket"], "mcp")
	cmd.Env = env
	cmd.Dir = workDir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, err
	}
	return cmd, stdin, stdout, nil
}

func peakKiB(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		return ru.Maxrss
	}
	return 0
}

func rssPipelinedRun(env []string, c *rssCase) error {
	cmd, stdin, stdout, err := startRSS(env)
	if err != nil {
		return err
	}
	var reqs bytes.Buffer
	reqs.WriteString(rssInit)
	for k := range rssPipelined {
		fmt.Fprintf(&reqs, rssCall, k)
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := stdin.Write(reqs.Bytes())
		stdin.Close()
		wrote <- err
	}()
	r := bufio.NewReaderSize(stdout, 1<<20)
	n, errs, size := 0, 0, 0
	for n < rssPipelined {
		line, err := r.ReadBytes('\n')
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return fmt.Errorf("after %d replies: %w", n, err)
		}
		if bytes.Contains(line, []byte(`"id":"i"`)) {
			continue
		}
		n++
		size = max(size, len(line))
		if bytes.Contains(line, []byte(`"error"`)) {
			errs++
		}
	}
	if err := <-wrote; err != nil {
		return err
	}
	io.Copy(io.Discard, stdout)
	waitOrKill(cmd, 60*time.Second)
	c.peaksKiB = append(c.peaksKiB, peakKiB(cmd))
	c.sent, c.replies, c.errors, c.maxReply = rssPipelined, n, errs, size
	return nil
}

func rssNoReadRun(env []string, c *rssCase) error {
	cmd, stdin, _, err := startRSS(env)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(stdin, rssInit); err != nil {
		return err
	}
	var sent atomic.Int64
	stop := time.Now().Add(c.dur)
	go func() {
		for time.Now().Before(stop) {
			if _, err := fmt.Fprintf(stdin, rssCall, sent.Load()); err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	time.Sleep(c.dur + time.Second)
	cmd.Process.Kill()
	cmd.Wait()
	c.accepted = sent.Load()
	c.peaksKiB = append(c.peaksKiB, peakKiB(cmd))
	return nil
}
