package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// attacks31 are the figures of issue 31's attacks on docket mcp --http
// (D91): clients that never read a large reply, and a flood of
// connections that never present the token.
type attacks31 struct {
	unreadProbes []time.Duration
	unreadLost   int
	floodOpened  int // connections the flood held open at once
	floodRefused int // connections the server answered 503 or closed at once
	floodProbes  []time.Duration
	floodLost    int
}

const (
	unreadConns = 4
	floodConns  = 4_083
)

// benchAttacks31 runs issue 31's attacks against docket mcp --http.
func benchAttacks31(rep *report, binary string) error {
	a := &attacks31{}
	db, export, err := seedRSSStore()
	if err != nil {
		return err
	}
	env := []string{"DOCKET_DB=" + db, "DOCKET_EXPORT=" + export}
	logf("attacks: %d clients that never read a 4 MiB reply, and %d probes", unreadConns, probeCount)
	if err := a.unread(binary, env); err != nil {
		return fmt.Errorf("unread replies: %w", err)
	}
	settle()
	logf("attacks: %d connections without the token, and the token holder's probes", floodConns)
	if err := a.flood(binary, env); err != nil {
		return fmt.Errorf("connection flood: %w", err)
	}
	rep.attacks31 = a
	return nil
}

// unread starts docket mcp --http; unreadConns connections each send a
// 2026-07-28 issue_show of the 4.8 MiB dk-big and never read; then
// probeCount calls of another client are timed.
func (a *attacks31) unread(binary string, env []string) error {
	cmd, u, err := startHTTPServer([]string{binary, "mcp", "--http", "127.0.0.1:0"}, env)
	if err != nil {
		return err
	}
	defer waitOrKill(cmd, 0)
	defer cmd.Process.Kill()
	addr := strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/mcp")
	body := `{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-big"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	for range unreadConns {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return err
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: issue_show\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
	}
	time.Sleep(2 * time.Second) // their replies are being written
	a.unreadProbes, a.unreadLost = probes(&http.Client{Timeout: probeTimeout}, u, "")
	return nil
}

// flood starts docket mcp --http with a token, opens floodConns
// keep-alive connections that send nothing, and times probeCount calls of
// the token holder on a new connection each.
func (a *attacks31) flood(binary string, env []string) error {
	tok := filepath.Join(workDir, "token")
	if err := os.WriteFile(tok, []byte("bench-token\n"), 0o600); err != nil {
		return err
	}
	cmd, u, err := startHTTPServer([]string{binary, "mcp", "--http", "127.0.0.1:0", "--token-file", tok}, env)
	if err != nil {
		return err
	}
	defer waitOrKill(cmd, 0)
	defer cmd.Process.Kill()
	addr := strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/mcp")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range floodConns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			a.floodRefused++
			continue
		}
		conns = append(conns, c)
	}
	time.Sleep(time.Second)
	// A connection the server refused or closed reads a 503 or EOF at once.
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(time.Millisecond))
		var one [1]byte
		if _, err := c.Read(one[:]); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				a.floodOpened++
				continue
			}
		}
		a.floodRefused++
	}
	client := &http.Client{Timeout: probeTimeout, Transport: &http.Transport{DisableKeepAlives: true}}
	a.floodProbes, a.floodLost = probes(client, u, "bench-token")
	return nil
}

// probes times probeCount stateless issue_show calls of a small issue
// (a missing one: its answer is an error result, small).
func probes(c *http.Client, u, token string) ([]time.Duration, int) {
	var got []time.Duration
	lost := 0
	for k := range probeCount {
		id := fmt.Sprint(k + 1)
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		r, _ := http.NewRequest("POST", u, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", "tools/list")
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		t := time.Now()
		resp, err := c.Do(r)
		if err != nil {
			lost++
			continue
		}
		var b bytes.Buffer
		b.ReadFrom(bufio.NewReader(resp.Body))
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(b.Bytes(), []byte(`"id":`+id+`,"result"`)) {
			lost++
			continue
		}
		got = append(got, time.Since(t))
	}
	return got, lost
}

func probeFigure(ps []time.Duration, lost int) string {
	if len(ps) == 0 {
		return fmt.Sprintf("0 of %d answered within %.0f s each", lost, probeTimeout.Seconds())
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
	return fmt.Sprintf("%d of %d answered, median %s, slowest %s", len(ps), len(ps)+lost, ms(ps[len(ps)/2]), ms(ps[len(ps)-1]))
}

func (r *report) attacks31Section(b *strings.Builder) {
	a := r.attacks31
	b.WriteString("## docket mcp under attack (issue 31)\n\n")
	fmt.Fprintf(b, "The attacks of issue 31 on `docket mcp --http` with its defaults (D91). Unread replies: %d connections each send a 2026-07-28 `issue_show` of an issue whose reply is about 4.8 MiB and never read it; two seconds later another client makes %d `tools/list` calls, one after the other, each given %.0f s. Connection flood: with `--token-file`, %s connections are opened that never send a byte; then the token holder makes %d `tools/list` calls, each on a new connection. Reproduce with `bench/run.sh --only attacks --out -`.\n\n",
		unreadConns, probeCount, probeTimeout.Seconds(), commas(floodConns), probeCount)
	b.WriteString("| attack | figure |\n|---|---|\n")
	fmt.Fprintf(b, "| unread replies: the other client's calls | %s |\n", probeFigure(a.unreadProbes, a.unreadLost))
	fmt.Fprintf(b, "| flood: connections held open by the server | %s of %s (the rest refused or closed to make room) |\n", commas(a.floodOpened), commas(floodConns))
	fmt.Fprintf(b, "| flood: the token holder's calls | %s |\n", probeFigure(a.floodProbes, a.floodLost))
	b.WriteString("\n")
}
