package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// httpServer is one server of the HTTP throughput comparison.
type httpServer struct {
	name     string
	baseline bool // the stock configuration the target is measured against
	mcpgo    bool // mcp-go's streamable HTTP server: the speed target (issue 32)
	target   bool // the docket configuration the target is measured on
	argv     []string
}

// httpRound is one timed run of calls against one server.
type httpRound struct {
	wall time.Duration
	cpu  time.Duration // the server process's user + system time
	lat  []time.Duration
}

// httpResult is one server's rounds at one level, summarised.
type httpResult struct {
	httpServer
	inflight   int
	calls      int // per round
	rounds     int
	lost       int
	throughput float64       // calls/s, median over rounds
	tputMin    float64       // slowest round
	tputMax    float64       // fastest round
	cpuPerCall time.Duration // server CPU per call, median over rounds
	p50, p99   time.Duration // over every call of every round
	rssKiB     int64
	// Against the baseline, round by round (the two ran back to back, so
	// load that drifts over the run moves both alike): the median of the
	// throughput ratios, each ratio, and the median of the CPU-per-call
	// ratios (this server's over the baseline's).
	ratio    float64
	ratios   []float64
	cpuRatio float64
	// Against mcp-go's server, likewise.
	goRatio  float64
	goRatios []float64
	// The run with every tenth body malformed: well-formed calls not
	// answered with a result on their id, and malformed bodies left
	// without an error answer.
	badCalls, badLost, badUnanswered int
}

// httpCompare is the HTTP section: each server's result at each level.
type httpCompare struct {
	results []httpResult
}

// httpConnCaps lifts docket's connection caps (D91) above the 512
// connections a client with 512 requests in flight over HTTP/1.1 opens:
// at its default of 128 per address the cap, not the server, would be
// measured.
var httpConnCaps = []string{"--max-conns", "2048", "--max-conns-per-addr", "2048"}

// benchHTTP compares docket mcp --http with mcp-go's streamable HTTP
// server (bench/baselines/mcpgo -http, the target of issue 32) and
// go-sdk's stock streamable handler serving docket's own MCP server over
// the same store (bench/baselines/sdkhttp) with JSON replies, the
// baseline, at 1, 64 and 512 requests in flight; with --mcp-before an
// earlier docket build runs beside them. At 64 docket also runs with
// --max-in-flight 64 (handling all 64 at once, as the stock handler
// does), and the stock handler's default SSE replies and docket's front
// served by the baseline's program (what the front costs, apart from
// docket's process) are shown for reference. Every server runs as its
// own process on 127.0.0.1; the client keeps the level's tools/call
// issue_show requests in flight inside one 2025-11-25 session per
// server. After a warm-up, short rounds of a fixed number of calls
// alternate between the servers, so that each round of a server has a
// round of the baseline next to it; then one run per server with every
// tenth body malformed.
func benchHTTP(rep *report) error {
	db, export, err := seedMCPStore()
	if err != nil {
		return err
	}
	env := []string{"DOCKET_DB=" + db, "DOCKET_EXPORT=" + export}
	docket := func(argv0 string, extra ...string) []string {
		return append(append([]string{argv0, "mcp", "--http", "127.0.0.1:0"}, httpConnCaps...), extra...)
	}
	cmp := &httpCompare{}
	for _, lv := range []int{1, 64, 512} {
		servers := []httpServer{
			{name: "docket mcp --http (its defaults)", target: true, argv: docket(bin["docket"])},
			{name: "go-sdk v1.8.0 stock streamable handler, JSON replies", baseline: true, argv: []string{bin["sdkhttp"]}},
			{name: "mcp-go v1.2.1 streamable HTTP server", mcpgo: true, argv: []string{bin["mcpgo"], "-http", "127.0.0.1:0"}},
		}
		if *mcpBefore != "" {
			servers = append(servers, httpServer{name: "docket mcp --http (before)", argv: docket(*mcpBefore)})
		}
		if lv == 64 {
			servers = append(servers,
				httpServer{name: "docket mcp --http --max-in-flight 64", argv: docket(bin["docket"], "--max-in-flight", "64")},
				httpServer{name: "go-sdk v1.8.0 stock streamable handler, SSE replies (its default)", argv: []string{bin["sdkhttp"], "-sse"}},
				httpServer{name: "docket's front (its defaults) in the baseline's process", argv: []string{bin["sdkhttp"], "-front"}},
			)
		}
		res, err := benchHTTPLevel(servers, env, lv)
		if err != nil {
			return err
		}
		cmp.results = append(cmp.results, res...)
	}
	rep.http = cmp
	return nil
}

// benchHTTPLevel runs servers at inflight requests in flight.
func benchHTTPLevel(servers []httpServer, env []string, inflight int) ([]httpResult, error) {
	calls, rounds := max(1000, 4*inflight), 15
	if *quick {
		calls, rounds = max(300, 2*inflight), 2
	}
	type running struct {
		srv    httpServer
		cmd    *exec.Cmd
		url    string
		sess   string
		client *http.Client
		rounds []httpRound
		failed int
		bad    [3]int
	}
	var rs []*running
	defer func() {
		for _, r := range rs {
			if r.cmd.ProcessState == nil {
				r.cmd.Process.Kill()
				r.cmd.Wait()
			}
		}
	}()
	for _, s := range servers {
		cmd, url, err := startHTTPServer(s.argv, env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		r := &running{srv: s, cmd: cmd, url: url, client: &http.Client{Transport: &http.Transport{MaxIdleConns: inflight, MaxIdleConnsPerHost: inflight, DisableCompression: true}}}
		rs = append(rs, r)
		if r.sess, err = httpHandshake(r.client, url); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		// Warm-up: connections opened, code paths paged in, heap grown.
		if _, _, err := httpLoad(r.client, url, r.sess, cmd.Process.Pid, inflight, 2*calls); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	logf("http: %d rounds of %d calls at %d in flight against each of %d servers", rounds, calls, inflight, len(rs))
	for k := range rounds {
		// Each round starts with a different server, so that none always
		// follows the same one.
		for j := range rs {
			r := rs[(k+j)%len(rs)]
			round, failed, err := httpLoad(r.client, r.url, r.sess, r.cmd.Process.Pid, inflight, calls)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.srv.name, err)
			}
			r.rounds = append(r.rounds, round)
			r.failed += failed
		}
	}
	for _, r := range rs {
		r.bad[0], r.bad[1], r.bad[2] = httpMalformed(r.client, r.url, r.sess, inflight, calls)
	}
	var base, mcpgo *running
	for _, r := range rs {
		if r.srv.baseline {
			base = r
		}
		if r.srv.mcpgo {
			mcpgo = r
		}
	}
	var out []httpResult
	for _, r := range rs {
		r.cmd.Process.Signal(syscall.SIGTERM)
		waitOrKill(r.cmd, 10*time.Second)
		res := httpResult{httpServer: r.srv, inflight: inflight, calls: calls, rounds: rounds, lost: r.failed, badCalls: r.bad[0], badLost: r.bad[1], badUnanswered: r.bad[2]}
		var tput, cpuRatios []float64
		var cpu, lat []time.Duration
		for k, rd := range r.rounds {
			tput = append(tput, float64(calls)/rd.wall.Seconds())
			cpu = append(cpu, rd.cpu/time.Duration(calls))
			lat = append(lat, rd.lat...)
			b := base.rounds[k]
			res.ratios = append(res.ratios, float64(b.wall)/float64(rd.wall))
			res.goRatios = append(res.goRatios, float64(mcpgo.rounds[k].wall)/float64(rd.wall))
			if b.cpu > 0 {
				cpuRatios = append(cpuRatios, float64(rd.cpu)/float64(b.cpu))
			}
		}
		sort.Float64s(tput)
		sort.Slice(cpu, func(i, j int) bool { return cpu[i] < cpu[j] })
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		res.throughput, res.tputMin, res.tputMax = medianFloat(tput), tput[0], tput[len(tput)-1]
		res.cpuPerCall = cpu[len(cpu)/2]
		res.ratio, res.cpuRatio, res.goRatio = medianFloat(res.ratios), medianFloat(cpuRatios), medianFloat(res.goRatios)
		if len(lat) > 0 {
			res.p50, res.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
		}
		if ru, ok := r.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
			res.rssKiB = ru.Maxrss
		}
		out = append(out, res)
	}
	return out, nil
}

// httpMalformed makes n posts with inflight outstanding, every tenth body
// a truncated JSON-RPC request, and counts the well-formed calls, those
// not answered with a result on their id (lost), and the malformed bodies
// not answered with a JSON-RPC error (unanswered).
func httpMalformed(c *http.Client, url, session string, inflight, n int) (calls, lost, unanswered int) {
	var next atomic.Int64
	var nCalls, nLost, nUnanswered atomic.Int64
	var wg sync.WaitGroup
	for range inflight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := next.Add(1)
				if k > int64(n) {
					return
				}
				id := strconv.FormatInt(k, 10)
				if k%10 == 0 {
					_, out, err := httpPost(c, url, session, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"issue_show","argum`)
					if err != nil || !bytes.Contains(out, []byte(`"error"`)) {
						nUnanswered.Add(1)
					}
					continue
				}
				nCalls.Add(1)
				_, out, err := httpPost(c, url, session, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`)
				if err != nil || !bytes.Contains(out, []byte(`"id":`+id+`,"result"`)) {
					nLost.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(nCalls.Load()), int(nLost.Load()), int(nUnanswered.Load())
}

// startHTTPServer starts a server and waits for the address it prints.
func startHTTPServer(argv, env []string) (*exec.Cmd, string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = workDir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	found := make(chan string, 1)
	var text strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if _, url, ok := strings.Cut(line, "serving MCP over HTTP at "); ok && !sent {
				found <- strings.TrimSpace(url)
				sent = true
				continue
			}
			if !sent {
				text.WriteString(line + "\n")
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case url, ok := <-found:
		if ok {
			return cmd, url, nil
		}
		cmd.Wait()
		return nil, "", fmt.Errorf("exited before serving: %s", text.String())
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, "", fmt.Errorf("no address printed in 30 s")
	}
}

func waitOrKill(cmd *exec.Cmd, d time.Duration) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
	}
}

// httpPost sends one JSON-RPC message and reads the whole reply.
func httpPost(c *http.Client, url, session, body string) (*http.Response, []byte, error) {
	r, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if session != "" {
		r.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := c.Do(r)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp, out, err
}

// httpHandshake opens a 2025-11-25 session and returns its id.
func httpHandshake(c *http.Client, url string) (string, error) {
	resp, out, err := httpPost(c, url, "", `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if err != nil {
		return "", err
	}
	sess := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sess == "" {
		return "", fmt.Errorf("initialize: status %d, session %q: %s", resp.StatusCode, sess, out)
	}
	if resp, out, err := httpPost(c, url, sess, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil || resp.StatusCode != http.StatusAccepted {
		return "", fmt.Errorf("notifications/initialized: %v %s", err, out)
	}
	return sess, nil
}

// httpShows makes n tools/call issue_show calls of issue, numbered 1..n
// and each with its number as id, keeping inflight outstanding at all
// times, and hands each call's reply to done (from inflight goroutines):
// ok says it is a result carrying its own id.
func httpShows(c *http.Client, url, session, issue string, inflight, n int, done func(k int, out []byte, ok bool, err error, d time.Duration)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range inflight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := next.Add(1)
				if k > int64(n) {
					return
				}
				id := strconv.FormatInt(k, 10)
				t := time.Now()
				_, out, err := httpPost(c, url, session, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"`+issue+`"}}}`)
				d := time.Since(t)
				done(int(k), out, err == nil && bytes.Contains(out, []byte(`"id":`+id+`,"result"`)), err, d)
			}
		}()
	}
	wg.Wait()
}

// httpLoad makes n calls with inflight outstanding at all times and times
// them. A call whose reply is not a result carrying its own id counts as
// failed (lost).
func httpLoad(c *http.Client, url, session string, pid, inflight, n int) (httpRound, int, error) {
	var failed atomic.Int64
	lat := make([]time.Duration, n)
	var firstErr error
	var errOnce sync.Once
	cpu0, err := procCPU(pid)
	if err != nil {
		return httpRound{}, 0, err
	}
	start := time.Now()
	httpShows(c, url, session, "dk-aaa", inflight, n, func(k int, out []byte, ok bool, err error, d time.Duration) {
		lat[k-1] = d
		if !ok {
			failed.Add(1)
			errOnce.Do(func() { firstErr = fmt.Errorf("call %d: %v: %.200s", k, err, out) })
		}
	})
	wall := time.Since(start)
	cpu1, err := procCPU(pid)
	if err != nil {
		return httpRound{}, 0, err
	}
	if f := failed.Load(); f == int64(n) {
		return httpRound{}, 0, firstErr
	}
	return httpRound{wall: wall, cpu: cpu1 - cpu0, lat: lat}, int(failed.Load()), nil
}

// procCPU is a process's user + system time so far, from /proc (in
// USER_HZ ticks, 100 a second on Linux).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	// utime and stime are fields 14 and 15 of stat(5); f[0] is field 3.
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: utime/stime not numbers", pid)
	}
	return time.Duration(u+s) * 10 * time.Millisecond, nil
}

// median of a slice of ratios.
func medianFloat(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}
