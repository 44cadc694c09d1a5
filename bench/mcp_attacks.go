package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// attackDocket, if set, is the docket binary the attacks run against
// instead of this checkout's (to measure a build from before a fix).
var attackDocket = flag.String("attack-docket", "", "with --only attacks: run the attacks against this docket binary instead of the one built from the checkout")

// attacks are the figures of issue 22's attacks on docket mcp (D71).
type attacks struct {
	binary string

	// Slow bodies: slowConns connections declare 16 MiB + 1 and send a
	// byte a second; probes other clients' calls made meanwhile.
	probes       []time.Duration // each answered probe's latency
	probesLost   int             // probes not answered within probeTimeout
	slowOutcome  []string        // how each slow connection ended
	slowDuration []time.Duration

	// Sessions: sessionCalls initialize calls.
	sessionsOK, sessionsRefused, sessionsFailed int
	sessionsWall                                time.Duration
	sessionsRSSKiB                              int64 // VmRSS once the calls are done
	sessionsPeakKiB                             int64

	// A cancelled claims_check: the second check's answer, counted from
	// the cancel of the first.
	secondAfterCancel time.Duration
	secondAnswered    bool
	firstAnswered     bool
}

const (
	slowConns    = 4
	probeCount   = 10
	probeTimeout = 10 * time.Second
	sessionCalls = 20_000
	slowWait     = 45 * time.Second // how long the slow connections are watched
)

// benchAttacks runs the attacks of issue 22 against docket mcp.
func benchAttacks(rep *report) error {
	a := &attacks{binary: bin["docket"]}
	if *attackDocket != "" {
		a.binary = *attackDocket
	}
	db, export, err := seedMCPStore()
	if err != nil {
		return err
	}
	env := []string{"DOCKET_DB=" + db, "DOCKET_EXPORT=" + export}
	logf("attacks: %d slow bodies and %d probes", slowConns, probeCount)
	if err := a.slowBodies(env); err != nil {
		return fmt.Errorf("slow bodies: %w", err)
	}
	settle()
	logf("attacks: %d initialize calls", sessionCalls)
	if err := a.sessions(env); err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	settle()
	logf("attacks: a cancelled claims_check")
	if err := a.cancelledCheck(env); err != nil {
		return fmt.Errorf("cancelled check: %w", err)
	}
	rep.attacks = a
	settle()
	return benchAttacks31(rep, a.binary)
}

// slowBodies starts docket mcp --http, opens slowConns connections that
// each declare a 16 MiB + 1 body and send one byte a second, and then
// times probeCount issue_show calls from another client, one after the
// other; it then watches how the slow connections end.
func (a *attacks) slowBodies(env []string) error {
	cmd, u, err := startHTTPServer([]string{a.binary, "mcp", "--http", "127.0.0.1:0"}, env)
	if err != nil {
		return err
	}
	defer waitOrKill(cmd, 0)
	defer cmd.Process.Kill()
	addr := strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/mcp")
	type end struct {
		what string
		d    time.Duration
	}
	ends := make(chan end, slowConns)
	stop := make(chan struct{})
	defer close(stop)
	for range slowConns {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return err
		}
		defer conn.Close()
		start := time.Now()
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n{", addr, 16<<20+1)
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Second):
					if _, err := conn.Write([]byte(" ")); err != nil {
						return
					}
				}
			}
		}()
		go func() {
			conn.SetReadDeadline(start.Add(slowWait))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					ends <- end{fmt.Sprintf("still open after %.0f s", slowWait.Seconds()), slowWait}
				} else {
					ends <- end{"closed without a reply", time.Since(start)}
				}
				return
			}
			resp.Body.Close()
			ends <- end{resp.Status, time.Since(start)}
		}()
	}
	time.Sleep(2 * time.Second) // the slow bodies' headers are in
	c := &http.Client{Timeout: probeTimeout}
	session, err := httpHandshake(c, u)
	if err != nil {
		a.probesLost = probeCount
		logf("attacks: the probe's initialize failed: %v", err)
	} else {
		for k := range probeCount {
			id := fmt.Sprint(k + 1)
			t := time.Now()
			_, out, err := httpPost(c, u, session, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"}}}`)
			if err != nil || !bytes.Contains(out, []byte(`"id":`+id+`,"result"`)) {
				a.probesLost++
				continue
			}
			a.probes = append(a.probes, time.Since(t))
		}
	}
	for range slowConns {
		e := <-ends
		a.slowOutcome = append(a.slowOutcome, e.what)
		a.slowDuration = append(a.slowDuration, e.d)
	}
	return nil
}

// sessions starts docket mcp --http and makes sessionCalls initialize
// calls, 16 at a time, none of which ends its session, then reads the
// server's resident memory.
func (a *attacks) sessions(env []string) error {
	cmd, u, err := startHTTPServer([]string{a.binary, "mcp", "--http", "127.0.0.1:0"}, env)
	if err != nil {
		return err
	}
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: 30 * time.Second}
	var ok, refused, failed atomic.Int64
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= sessionCalls {
				resp, _, err := httpPost(c, u, "", `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`)
				switch {
				case err != nil:
					failed.Add(1)
				case resp.StatusCode == http.StatusOK:
					ok.Add(1)
				case resp.StatusCode == http.StatusServiceUnavailable:
					refused.Add(1)
				default:
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	a.sessionsWall = time.Since(start)
	a.sessionsOK, a.sessionsRefused, a.sessionsFailed = int(ok.Load()), int(refused.Load()), int(failed.Load())
	a.sessionsRSSKiB = vmRSS(cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	a.sessionsPeakKiB = peakKiB(cmd)
	return nil
}

// vmRSS is a process's resident set size now, in KiB (Linux).
func vmRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kib int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kib)
			return kib
		}
	}
	return 0
}

// slowRegister is a register whose D1 makes a check slow (five
// literal-free anchors over a 4 MB file, issue 22) and whose D2 is quick.
func slowRegister(dir string) error {
	var claims strings.Builder
	for k, last := range "PONML" {
		fmt.Fprintf(&claims, "| C%d | anchored | `src/slow.go` | `[a-y]{500}[A-%c]` | | slow |\n", k+1, last)
	}
	rnd := rand.New(rand.NewSource(1))
	var src strings.Builder
	line := make([]byte, 100_000)
	for range 40 {
		for i := range line {
			line[i] = byte('a' + rnd.Intn(25))
		}
		src.Write(line)
		src.WriteByte('\n')
	}
	files := map[string]string{
		"docs/PRD.md": "# Decisions\n\nLive range: D1..D2.\n\n| ID | Decision | Status |\n|---|---|---|\n| D1 | [Slow](decisions/D1-slow.md) | accepted |\n| D2 | [Quick](decisions/D2-quick.md) | accepted |\n",
		"docs/decisions/D1-slow.md": "---\nid: D1\nstatus: accepted\ndate: 2026-12-01\n---\n# D1: Slow\n\nSlow.\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n" +
			claims.String(),
		"docs/decisions/D2-quick.md": "---\nid: D2\nstatus: accepted\ndate: 2026-12-01\n---\n# D2: Quick\n\nQuick.\n\n## Confirmation\n\n| Claim | Kind | Path | Anchor | Require | Why |\n|---|---|---|---|---|---|\n| C1 | present | `src/quick.go` | `package quick` | | quick |\n",
		"src/slow.go":                src.String(),
		"src/quick.go":               "package quick\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return gitInit(dir)
}

// cancelledCheck serves a slow register over stdio, starts claims_check on
// it, cancels it after two seconds and asks claims_check for the quick
// decision: the figure is how long after the cancel that one is answered
// (the slot of the one check that runs at a time must be free).
func (a *attacks) cancelledCheck(env []string) error {
	dir := filepath.Join(workDir, "attack-register")
	if err := slowRegister(dir); err != nil {
		return err
	}
	// The register is a repository of its own, and docket keeps its files
	// beneath the repository root (D67): the seeded export is copied in,
	// and the index is built from it there.
	var export string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "DOCKET_EXPORT="); ok {
			export = v
		}
	}
	data, err := os.ReadFile(export)
	if err != nil {
		return err
	}
	inside := filepath.Join(dir, ".knowledge", "tracker", "issues.jsonl")
	if err := os.MkdirAll(filepath.Dir(inside), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(inside, data, 0o644); err != nil {
		return err
	}
	cmd := exec.Command(a.binary, "mcp")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	cmd.Env = append(os.Environ(), "DOCKET_DB="+filepath.Join(dir, ".docket", "index.db"), "DOCKET_EXPORT="+inside)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer waitOrKill(cmd, 0)
	defer cmd.Process.Kill()
	answers := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && len(m.ID) > 0 {
				answers <- string(m.ID)
			}
		}
		close(answers)
	}()
	send := func(s string) { fmt.Fprintln(stdin, s) }
	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if id := <-answers; id != `"init"` {
		return fmt.Errorf("initialize: got %s", id)
	}
	send(`{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"name":"claims_check","arguments":{}}}`)
	time.Sleep(2 * time.Second)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"first"}}`)
	cancelled := time.Now()
	send(`{"jsonrpc":"2.0","id":"second","method":"tools/call","params":{"name":"claims_check","arguments":{"decision":"D2"}}}`)
	deadline := time.After(180 * time.Second)
	for !a.secondAnswered {
		select {
		case id, ok := <-answers:
			if !ok {
				return fmt.Errorf("docket mcp ended before answering")
			}
			switch id {
			case `"second"`:
				a.secondAnswered, a.secondAfterCancel = true, time.Since(cancelled)
			case `"first"`:
				a.firstAnswered = true
			}
		case <-deadline:
			a.secondAfterCancel = 180 * time.Second
			return nil
		}
	}
	return nil
}

func (r *report) attacksSection(b *strings.Builder) {
	a := r.attacks
	b.WriteString("## docket mcp under attack (issue 22)\n\n")
	fmt.Fprintf(b, "The attacks of issue 22 on `docket mcp` with its defaults (D71), over a store of 100 issues. Slow bodies: %d connections send the headers of a POST declaring `Content-Length: 16777217` and then one byte a second; two seconds later another client opens a session and makes %d `issue_show` calls one after the other, each given %.0f s. Sessions: %s `initialize` calls, 16 at a time, none ending its session; the server's resident memory is read once they are done. A cancelled check: over stdio, `claims_check` on a register whose D1 holds five literal-free anchors (`[a-y]{500}[A-P]`) over a 4 MB file is cancelled after 2 s, and `claims_check` of the quick D2 is sent at once; the figure is the time from the cancel to its answer (one check runs at a time).\n\n",
		slowConns, probeCount, probeTimeout.Seconds(), commas(sessionCalls))
	b.WriteString("| attack | figure |\n|---|---|\n")
	sort.Slice(a.probes, func(i, j int) bool { return a.probes[i] < a.probes[j] })
	if len(a.probes) > 0 {
		fmt.Fprintf(b, "| slow bodies: probes answered | %d of %d, median %s, slowest %s |\n", len(a.probes), probeCount, ms(a.probes[len(a.probes)/2]), ms(a.probes[len(a.probes)-1]))
	} else {
		fmt.Fprintf(b, "| slow bodies: probes answered | 0 of %d |\n", probeCount)
	}
	var ends []string
	for k, o := range a.slowOutcome {
		ends = append(ends, fmt.Sprintf("%s at %.1f s", o, a.slowDuration[k].Seconds()))
	}
	fmt.Fprintf(b, "| slow bodies: the slow connections | %s |\n", strings.Join(ends, "; "))
	fmt.Fprintf(b, "| sessions: %s initialize calls | %s served, %s refused (503), %d failed, in %.1f s |\n", commas(sessionCalls), commas(a.sessionsOK), commas(a.sessionsRefused), a.sessionsFailed, a.sessionsWall.Seconds())
	fmt.Fprintf(b, "| sessions: server memory after them | %s resident, %s peak |\n", mib(a.sessionsRSSKiB), mib(a.sessionsPeakKiB))
	if a.secondAnswered {
		answered := "never answered"
		if a.firstAnswered {
			answered = "answered"
		}
		fmt.Fprintf(b, "| cancelled check: the next check answered | %s after the cancel (the cancelled one: %s) |\n", seconds(a.secondAfterCancel), answered)
	} else {
		fmt.Fprintf(b, "| cancelled check: the next check answered | not within %.0f s of the cancel |\n", a.secondAfterCancel.Seconds())
	}
	b.WriteString("\n")
}

// seconds is d in ms below 10 s, in s above.
func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return ms(d)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// commas writes n with thousands separators.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
