package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark/ast"
)

// A curl recipe is a ```sh block of docs/guide/docket-mcp.md after
// <!-- http-recipe: ERA -->: one URL= line, curl requests, each followed by
// a "# STATUS[: BODY-PREFIX]" comment, and at most the one sessionLine
// that keeps a 2025-11-25 session's id. TestCurlRecipes sends exactly the
// headers and bodies the page shows to a docket mcp --http it starts, so
// the page and the server cannot drift (D79).

const (
	recipePage  = "docs/guide/docket-mcp.md"
	recipeURL   = "URL=http://127.0.0.1:8765/mcp"
	tokenSubst  = "$(head -n1 ~/.config/docket-token)"
	sessionLine = `SESSION=$(sed -n 's/^Mcp-Session-Id: *//ip' headers.txt | tr -d '\r')`
)

var (
	recipeMarkerRE = regexp.MustCompile(`^<!--\s*http-recipe:\s*(\S+)\s*-->$`)
	answerRE       = regexp.MustCompile(`^# ([0-9]{3})(?:: (.*))?$`)
)

// recipeRequest is one curl command of a recipe and the answer it shows.
type recipeRequest struct {
	line         int
	method       string
	headers      [][2]string
	body         string
	status       int
	prefix       string
	keepsSession bool // a sessionLine follows: keep the answer's Mcp-Session-Id
}

type recipe struct {
	era      string
	line     int
	requests []recipeRequest
}

// recipes returns the recipes of the page; a malformed one is an error.
func recipes(t *testing.T, d *doc) []recipe {
	t.Helper()
	var out []recipe
	_ = ast.Walk(d.ast, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		prev, ok := fb.PreviousSibling().(*ast.HTMLBlock)
		if !ok || prev.Lines().Len() == 0 {
			return ast.WalkContinue, nil
		}
		seg := prev.Lines().At(0)
		m := recipeMarkerRE.FindStringSubmatch(strings.TrimSpace(string(seg.Value(d.src))))
		if m == nil {
			return ast.WalkContinue, nil
		}
		var lines []string
		for i := 0; i < fb.Lines().Len(); i++ {
			seg := fb.Lines().At(i)
			lines = append(lines, strings.TrimSuffix(string(seg.Value(d.src)), "\n"))
		}
		r, err := parseRecipe(lines)
		if err != nil {
			t.Errorf("%s:%d: recipe %s: %v", d.rel, d.nodeLine(fb), m[1], err)
			return ast.WalkContinue, nil
		}
		r.era, r.line = m[1], d.nodeLine(fb)
		out = append(out, r)
		return ast.WalkContinue, nil
	})
	return out
}

// parseRecipe reads a recipe's lines (line numbers are 0-based in it).
func parseRecipe(lines []string) (recipe, error) {
	var r recipe
	if len(lines) == 0 || lines[0] != recipeURL {
		return r, fmt.Errorf("the first line is not %s", recipeURL)
	}
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		switch {
		case l == sessionLine:
			if len(r.requests) == 0 {
				return r, fmt.Errorf("line %d: the session line before any request", i+1)
			}
			r.requests[len(r.requests)-1].keepsSession = true
		case answerRE.MatchString(l):
			m := answerRE.FindStringSubmatch(l)
			if len(r.requests) == 0 || r.requests[len(r.requests)-1].status != 0 {
				return r, fmt.Errorf("line %d: an answer with no request before it", i+1)
			}
			q := &r.requests[len(r.requests)-1]
			q.status, _ = strconv.Atoi(m[1])
			if q.status < 100 || q.status > 599 {
				return r, fmt.Errorf("line %d: status %s is not an HTTP status", i+1, m[1])
			}
			q.prefix = m[2]
		case strings.HasPrefix(l, "curl "):
			start := i
			cmd := l
			for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(lines[i])
			}
			q, err := parseCurl(cmd)
			if err != nil {
				return r, fmt.Errorf("line %d: %v", start+1, err)
			}
			q.line = start + 1
			r.requests = append(r.requests, q)
		default:
			return r, fmt.Errorf("line %d: %q is not a curl request, an answer (# STATUS: PREFIX) or the session line", i+1, l)
		}
	}
	for _, q := range r.requests {
		if q.status == 0 {
			return r, fmt.Errorf("line %d: the request has no \"# STATUS\" answer under it", q.line)
		}
	}
	return r, nil
}

// shellWords splits a command as sh does for the quoting the recipes
// use: single quotes literal, double quotes with $NAME kept for later.
func shellWords(s string) ([]string, error) {
	var words []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("an unclosed %c quote", quote)
	}
	if in {
		words = append(words, b.String())
	}
	return words, nil
}

// parseCurl reads the curl options the recipes use.
func parseCurl(cmd string) (recipeRequest, error) {
	q := recipeRequest{method: "POST"}
	w, err := shellWords(cmd)
	if err != nil {
		return q, err
	}
	url := false
	for i := 1; i < len(w); i++ {
		arg := func() (string, error) {
			if i+1 >= len(w) {
				return "", fmt.Errorf("%s needs a value", w[i])
			}
			i++
			return w[i], nil
		}
		switch w[i] {
		case "-sS":
		case "-D":
			if v, err := arg(); err != nil || v != "headers.txt" {
				return q, fmt.Errorf("want -D headers.txt (the session line reads it)")
			}
		case "-X":
			v, err := arg()
			if err != nil {
				return q, err
			}
			if v != "GET" && v != "POST" && v != "DELETE" {
				return q, fmt.Errorf("-X %q: the transport serves GET, POST and DELETE", v)
			}
			q.method = v
		case "-H":
			v, err := arg()
			if err != nil {
				return q, err
			}
			k, val, ok := strings.Cut(v, ":")
			if !ok {
				return q, fmt.Errorf("header %q has no colon", v)
			}
			q.headers = append(q.headers, [2]string{strings.TrimSpace(k), strings.TrimSpace(val)})
		case "-d":
			v, err := arg()
			if err != nil {
				return q, err
			}
			q.body = v
		case "$URL":
			url = true
		default:
			return q, fmt.Errorf("curl argument %q is not one the test sends (-sS, -D headers.txt, -X, -H, -d, \"$URL\")", w[i])
		}
	}
	if !url {
		return q, fmt.Errorf(`no "$URL"`)
	}
	if q.method == "POST" && q.body == "" {
		return q, fmt.Errorf("a POST with no -d body")
	}
	return q, nil
}

// answerMatches reports whether body begins with the first part of shown
// and holds its later parts (split at " … "), in order.
func answerMatches(body, shown string) bool {
	parts := strings.Split(shown, " … ")
	if !strings.HasPrefix(body, parts[0]) {
		return false
	}
	body = body[len(parts[0]):]
	for _, p := range parts[1:] {
		i := strings.Index(body, p)
		if i < 0 {
			return false
		}
		body = body[i+len(p):]
	}
	return true
}

// TestRecipeParser: the parser refuses what it cannot send as shown.
func TestRecipeParser(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		lines []string
		err   string
	}{
		{"no url", []string{`curl -sS "$URL" -d '{}'`, "# 200"}, "first line"},
		{"no answer", []string{recipeURL, `curl -sS "$URL" -d '{}'`}, "no \"# STATUS\" answer"},
		{"unknown flag", []string{recipeURL, `curl -k "$URL" -d '{}'`, "# 200"}, `"-k"`},
		{"other line", []string{recipeURL, `echo hi`}, "not a curl request"},
		{"unclosed", []string{recipeURL, `curl "$URL" -d '{`, "# 200"}, "unclosed"},
		{"no body", []string{recipeURL, `curl -sS "$URL"`, "# 200"}, "no -d body"},
		{"octal status", []string{recipeURL, `curl -sS "$URL" -d '{}'`, "# 010"}, "not an HTTP status"},
		{"method", []string{recipeURL, `curl -X '0' "$URL"`, "# 200"}, "serves GET, POST and DELETE"},
	} {
		_, err := parseRecipe(c.lines)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.err)
		}
	}
	r, err := parseRecipe([]string{recipeURL, `curl -sS -X DELETE "$URL" \`, `  -H "Mcp-Session-Id: $SESSION"`, "# 204"})
	if err != nil || len(r.requests) != 1 || r.requests[0].method != "DELETE" || r.requests[0].status != 204 || r.requests[0].headers[0] != [2]string{"Mcp-Session-Id", "$SESSION"} {
		t.Errorf("got %+v, %v", r, err)
	}
}

// TestCurlRecipes runs every recipe of the page against a docket mcp
// --http the test starts in a fresh tracker, and checks each answer's
// status and the start of its body.
func TestCurlRecipes(t *testing.T) {
	d := readDoc(t, recipePage)
	rs := recipes(t, d)
	eras := map[string]bool{}
	for _, r := range rs {
		eras[r.era] = true
	}
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		if !eras[era] {
			t.Errorf("%s has no http-recipe for %s", recipePage, era)
		}
	}
	if t.Failed() {
		return
	}
	docket, err := exec.LookPath("docket")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tour := loadFixture(t, "tour")
	for _, name := range tour.order {
		if strings.HasPrefix(name, ".console/") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, tour.files[name], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"git", "init", "-q"}, {docket, "init", "--prefix", "dk"}} {
		c := exec.Command(args[0], args[1:]...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	const token = "0123456789abcdef0123456789abcdef"
	tokenFile := filepath.Join(t.TempDir(), "docket-token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	open := serveRecipes(t, docket, dir)
	guarded := serveRecipes(t, docket, dir, "--token-file", tokenFile)
	client := &http.Client{Timeout: 60 * time.Second}
	for _, r := range rs {
		session, url := "", open
		if r.era == "token" {
			url = guarded
		}
		for _, q := range r.requests {
			where := fmt.Sprintf("%s:%d: recipe %s", recipePage, r.line+q.line-1, r.era)
			req, err := http.NewRequest(q.method, url, strings.NewReader(q.body))
			if err != nil {
				t.Fatal(err)
			}
			if q.body == "" {
				req.Body = nil
			}
			for _, h := range q.headers {
				v := strings.ReplaceAll(h[1], "$SESSION", session)
				req.Header.Set(h[0], strings.ReplaceAll(v, tokenSubst, token))
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != q.status {
				t.Errorf("%s: status %d, the page shows %d; body %s", where, resp.StatusCode, q.status, b)
			}
			if !answerMatches(string(b), q.prefix) {
				t.Errorf("%s: the answer is %.400q, the page shows %q", where, b, q.prefix)
			}
			if resp.StatusCode < 300 && strings.Contains(string(b), `"error":`) {
				t.Errorf("%s: the answer is an error: %s", where, b)
			}
			if q.keepsSession {
				if session = resp.Header.Get("Mcp-Session-Id"); session == "" {
					t.Errorf("%s: no Mcp-Session-Id header in the answer", where)
				}
			}
		}
	}
}

// TestAnswerMatches: the parts after " … " are found in order.
func TestAnswerMatches(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body, shown string
		want        bool
	}{
		{`{"a":1,"b":2}`, `{"a":1`, true},
		{`{"a":1,"b":2}`, `{"a":2`, false},
		{`{"a":1,"b":2,"c":3}`, `{"a": … "b":2 … "c":3`, true},
		{`{"a":1,"c":3,"b":2}`, `{"a": … "b":2 … "c":3`, false},
		{`{"a":1}`, `{"a": … "z"`, false},
	} {
		if got := answerMatches(c.body, c.shown); got != c.want {
			t.Errorf("answerMatches(%s, %s) = %v, want %v", c.body, c.shown, got, c.want)
		}
	}
}

// FuzzParseRecipe: the recipe parser returns a recipe or an error for any
// block, never panics, and every request it returns has an answer.
func FuzzParseRecipe(f *testing.F) {
	f.Add(recipeURL + "\ncurl -sS \"$URL\" \\\n  -H 'A: b' \\\n  -d '{}'\n# 200: {\n" + sessionLine)
	f.Add(recipeURL + "\ncurl -sS -X DELETE \"$URL\" -H \"Mcp-Session-Id: $SESSION\"\n# 204")
	f.Add("curl '\n# 2")
	f.Fuzz(func(t *testing.T, block string) {
		r, err := parseRecipe(strings.Split(block, "\n"))
		if err != nil {
			return
		}
		for _, q := range r.requests {
			if q.status < 100 || q.status > 599 || (q.method != "GET" && q.method != "POST" && q.method != "DELETE") {
				t.Fatalf("request %+v of %q", q, block)
			}
		}
	})
}

// serveRecipes starts docket mcp --http on a free port of 127.0.0.1 in
// dir, with args, and returns its URL; the server ends with the test.
func serveRecipes(t *testing.T, docket, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv := exec.CommandContext(ctx, docket, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	srv.Dir = dir
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = srv.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, a, ok := strings.Cut(sc.Text(), "serving MCP over HTTP at "); ok {
				addr <- a
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			t.Fatal("docket mcp --http exited before serving")
		}
		return a
	case <-time.After(60 * time.Second):
		t.Fatal("docket mcp --http did not say where it serves within 60 s")
	}
	return ""
}
