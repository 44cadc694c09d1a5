package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/claimslint/claimslint/server/mcp/internal/mcptest"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	"github.com/rogpeppe/go-internal/txtar"
)

// keptHeaders are the response headers the HTTP corpus records.
var keptHeaders = []string{"Allow", "Content-Type", "Mcp-Session-Id", "Www-Authenticate"}

// TestHTTPConformance replays each testdata/http file's requests, in
// order, against docket mcp --http on a real loopback listener, and
// compares each response (status, the headers above, exact body bytes) with
// the file. "$SESSION" in a request stands for the Mcp-Session-Id the last
// initialize minted, and in a response for any minted id. With -update the
// responses are rewritten.
func TestHTTPConformance(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/http/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no HTTP conformance files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			store, _ := newStore(t)
			srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir()}, streamhttp.HTTPOptions{Token: tokenFor(ar)}))
			defer srv.Close()
			session := ""
			var out []txtar.File
			changed := false
			for k := 0; k < len(ar.Files); k++ {
				f := ar.Files[k]
				if f.Name != "request" {
					continue
				}
				got, minted := roundTrip(t, srv.URL, f.Data, session)
				if minted != "" {
					session = minted
				}
				out = append(out, f, txtar.File{Name: "response", Data: got})
				var want []byte
				if k+1 < len(ar.Files) && ar.Files[k+1].Name == "response" {
					want = ar.Files[k+1].Data
				}
				if !bytes.Equal(got, want) {
					changed = true
					if !*update {
						t.Errorf("request %d:\n%s--- got\n%s--- want\n%s", len(out)/2, f.Data, got, want)
					}
				}
			}
			if *update && changed {
				ar.Files = out
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// tokenFor reads "token: X" from the file's comment.
func tokenFor(ar *txtar.Archive) string {
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if v, ok := strings.CutPrefix(l, "token: "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// roundTrip sends one recorded request and renders the response.
func roundTrip(t *testing.T, base string, req []byte, session string) ([]byte, string) {
	t.Helper()
	head, body, _ := bytes.Cut(req, []byte("\n\n"))
	lines := strings.Split(string(head), "\n")
	method, path, _ := strings.Cut(lines[0], " ")
	r, err := http.NewRequest(method, base+path, bytes.NewReader(bytes.TrimSuffix(body, []byte("\n"))))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, ": ")
		r.Header.Set(k, strings.ReplaceAll(v, "$SESSION", session))
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	minted := resp.Header.Get("Mcp-Session-Id")
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s\n", resp.Status)
	for _, h := range keptHeaders {
		if v := resp.Header.Get(h); v != "" {
			if h == "Mcp-Session-Id" {
				v = "$SESSION"
			}
			fmt.Fprintf(&out, "%s: %s\n", h, v)
		}
	}
	out.WriteString("\n")
	out.Write(b)
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		out.WriteString("\n")
	}
	return out.Bytes(), minted
}

// TestHTTPConcurrentMalformed: 512 requests in flight over HTTP, every
// tenth body malformed: each valid one is answered once on its own id, each
// malformed one gets a 400 with a JSON-RPC error; none is lost.
func TestHTTPConcurrentMalformed(t *testing.T) {
	t.Parallel()
	store, _ := newStore(t)
	srv := httptest.NewServer(newHTTPHandler(serveOptions{Store: store, Dir: t.TempDir(), MaxInFlight: 64}, streamhttp.HTTPOptions{}))
	defer srv.Close()
	const n = 512
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: n, MaxIdleConnsPerHost: n}}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- httpCall(client, srv.URL, k)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

const modernMeta = mcptest.ModernMeta

// httpCall sends request k and checks its one answer.
func httpCall(c *http.Client, base string, k int) error {
	id := fmt.Sprintf(`"r-%d"`, k)
	body := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-aaa"},` + modernMeta + `}}`
	malformed := k%10 == 0
	if malformed {
		body = body[:len(body)-7] // cut inside the params: not JSON
	}
	r, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", "2026-07-28")
	r.Header.Set("Mcp-Method", "tools/call")
	r.Header.Set("Mcp-Name", "issue_show")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := c.Do(r.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("request %d: %w", k, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	rs := scanReplies(b)
	switch {
	case malformed && (resp.StatusCode != 400 || len(rs) != 1 || !strings.Contains(rs[0], `"id":null,"error":{"code":-32700`)):
		return fmt.Errorf("malformed %d: %d %s", k, resp.StatusCode, b)
	case !malformed && (resp.StatusCode != 200 || len(rs) != 1 || !strings.HasPrefix(rs[0], `{"jsonrpc":"2.0","id":`+id+`,"result":`)):
		return fmt.Errorf("request %d: %d %s", k, resp.StatusCode, b)
	}
	return nil
}

// scanReplies returns the JSON-RPC messages of a JSON or SSE body.
func scanReplies(b []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		l := strings.TrimPrefix(sc.Text(), "data: ")
		if strings.HasPrefix(l, "{") {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// TestHTTPDrain: when the server's context ends (SIGTERM), a request in
// flight is still answered before ServeHTTP returns, and new connections
// are refused.
func TestHTTPDrain(t *testing.T) {
	t.Parallel()
	base, _ := newStore(t)
	s := &slowStore{Store: base, Release: make(chan struct{}), Entered: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- serveHTTP(ctx, serveOptions{Store: s, Dir: t.TempDir()}, streamhttp.HTTPOptions{Addr: "127.0.0.1:0", Ready: ready})
	}()
	addr := <-ready
	answered := make(chan error, 1)
	go func() { answered <- httpCall(http.DefaultClient, "http://"+addr, 1) }()
	<-s.Entered // the request is waiting in the store
	cancel()
	// The drain has begun once the listener is closed: only then is the
	// request let go, so it is answered by the drain, not before it.
	waitUntil(t, "the listener to close", func() bool {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
	close(s.Release)
	if err := <-answered; err != nil {
		t.Errorf("request in flight at shutdown: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("ServeHTTP: %v", err)
	}
	if _, err := http.Get("http://" + addr + "/mcp"); err == nil {
		t.Error("the server still accepts connections after the drain")
	}
}
