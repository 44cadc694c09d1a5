package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/claimslint/claimslint/server/docket"
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
	i := docket.Issue{ID: "dk-big", Title: "big", Description: strings.Repeat("x", rssDescription), Status: docket.StatusOpen, Type: docket.TypeTask, Priority: 2,
		CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Version: 1, Schema: docket.Schema}
	i.Normalize()
	return seedStore1(filepath.Join(workDir, "rss-store"), &docket.ImportSet{Issues: []docket.Issue{i}})
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
	hc := rssCase{name: fmt.Sprintf("HTTP (`--http`): %d requests, %d in flight, every reply read", rssPipelined, rssHTTPInFlight)}
	for k := range runs {
		logf("rss: HTTP run %d/%d", k+1, runs)
		if err := rssHTTPRun(db, export, &hc); err != nil {
			return fmt.Errorf("http: %w", err)
		}
	}
	hn := rssCase{name: fmt.Sprintf("HTTP (`--http`): %d connections write calls and never read", rssHTTPInFlight), dur: dur}
	logf("rss: HTTP connections that never read, %s", dur)
	if err := rssHTTPNoReadRun(db, export, &hn); err != nil {
		return fmt.Errorf("http never reads: %w", err)
	}
	rep.rss = []rssCase{pc, nc, hc, hn}
	return nil
}

// rssHTTPInFlight is how many calls the HTTP clients keep outstanding, as
// many as the throughput benchmark's (issue 15's 64).
const rssHTTPInFlight = 64

// rssHTTPRun serves the tracker with docket mcp --http (its defaults) and
// makes rssPipelined issue_show calls of the large issue with
// rssHTTPInFlight outstanding, inside one 2025-11-25 session, reading
// every reply.
func rssHTTPRun(db, export string, c *rssCase) error {
	cmd, u, err := startHTTPServer([]string{bin["docket"], "mcp", "--http", "127.0.0.1:0"}, []string{"DOCKET_DB=" + db, "DOCKET_EXPORT=" + export})
	if err != nil {
		return err
	}
	defer waitOrKill(cmd, 0)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: rssHTTPInFlight, DisableCompression: true}}
	sess, err := httpHandshake(client, u)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	replies, errs, size := 0, 0, 0
	var firstErr error
	httpShows(client, u, sess, "dk-big", rssHTTPInFlight, rssPipelined, func(_ int, out []byte, ok bool, err error, _ time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			return
		}
		replies++
		size = max(size, len(out))
		if !ok {
			errs++
		}
	})
	if firstErr != nil {
		return firstErr
	}
	cmd.Process.Signal(syscall.SIGTERM)
	waitOrKill(cmd, 60*time.Second)
	c.peaksKiB = append(c.peaksKiB, peakKiB(cmd))
	c.sent, c.replies, c.errors = rssPipelined, replies, errs
	c.maxReply = max(c.maxReply, size)
	return nil
}

// rssHTTPNoReadRun opens rssHTTPInFlight connections to docket mcp --http
// and, for c.dur, writes issue_show calls of the large issue on each
// (pipelined HTTP/1.1 requests inside one session) without ever reading a
// reply.
func rssHTTPNoReadRun(db, export string, c *rssCase) error {
	cmd, u, err := startHTTPServer([]string{bin["docket"], "mcp", "--http", "127.0.0.1:0"}, []string{"DOCKET_DB=" + db, "DOCKET_EXPORT=" + export})
	if err != nil {
		return err
	}
	defer waitOrKill(cmd, 0)
	sess, err := httpHandshake(&http.Client{}, u)
	if err != nil {
		return err
	}
	pu, err := url.Parse(u)
	if err != nil {
		return err
	}
	var sent atomic.Int64
	stop := time.Now().Add(c.dur)
	var conns []net.Conn
	defer func() {
		for _, cn := range conns {
			cn.Close()
		}
	}()
	for range rssHTTPInFlight {
		cn, err := net.Dial("tcp", pu.Host)
		if err != nil {
			return err
		}
		conns = append(conns, cn)
		go func() {
			for time.Now().Before(stop) {
				k := sent.Add(1)
				body := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(k, 10) + `,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-big"}}}`
				req := "POST " + pu.Path + " HTTP/1.1\r\nHost: " + pu.Host + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: " + sess + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
				cn.SetWriteDeadline(stop)
				if _, err := io.WriteString(cn, req); err != nil {
					sent.Add(-1)
					return
				}
			}
		}()
	}
	endNoRead(cmd, c, &sent)
	return nil
}

// endNoRead lets a never-reading client write for its duration, then kills
// the server and records what was written and the server's peak RSS.
func endNoRead(cmd *exec.Cmd, c *rssCase, sent *atomic.Int64) {
	time.Sleep(c.dur + time.Second)
	cmd.Process.Kill()
	cmd.Wait()
	c.accepted = sent.Load()
	c.peaksKiB = append(c.peaksKiB, peakKiB(cmd))
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
	endNoRead(cmd, c, &sent)
	return nil
}
