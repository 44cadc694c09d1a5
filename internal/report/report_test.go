package report

import (
	"bytes"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claimslint/claimslint/internal/author"
	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/format"
)

// fixture is a repository made by init, plus a decision whose claim fails.
func fixture(t *testing.T) string {
	dir := t.TempDir()
	plan, err := author.Init(author.InitOptions{Dir: dir, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(dir); err != nil {
		t.Fatal(err)
	}
	plan, err = author.New(author.NewOptions{Dir: dir, Title: "Reject batches", Status: "accepted", Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(dir); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, plan.File)
	b, _ := os.ReadFile(p)
	b = append(b, []byte("| C1 | present | `src/*.go` | `return errBatch` | | a batch is refused |\n")...)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "wire.go"), []byte("package wire\n\n// TODO: return errBatch\n"), 0o644)
	return dir
}

func render(t *testing.T, dir, url string) string {
	var buf bytes.Buffer
	if err := Write(&buf, Options{Dir: dir, RepoURL: url, Now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestReportContent(t *testing.T) {
	dir := fixture(t)
	html := render(t, dir, "https://example.invalid/org/repo")
	// Needs attention is exactly what check prints, line for line.
	res, err := check.Run(check.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := format.Text(&out, res.Findings); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatal("the fixture should have a check finding")
	}
	for _, l := range lines {
		if !strings.Contains(html, "<code>"+template.HTMLEscapeString(l)+"</code>") {
			t.Errorf("report lacks check's line %q", l)
		}
	}
	if n := strings.Count(html, `<li class="finding">`); n != len(lines) {
		t.Errorf("report lists %d findings, check prints %d", n, len(lines))
	}
	for _, want := range []string{
		`<ul id="findings">`,
		`id="D2"`, `<span class="badge accepted">accepted</span>`,
		`claims: 2 ok, 1 failed`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, banned := range []string{"<script src", "<link ", "http://", "@import"} {
		if strings.Contains(html, banned) {
			t.Errorf("report is not self-contained: it has %q", banned)
		}
	}
}

// TestReportInBrowser renders the page in headless Chromium (Debian's
// chromium package), asserts the DOM it built and takes a screenshot. .ci/run
// installs chromium where it can; elsewhere the test is skipped.
func TestReportInBrowser(t *testing.T) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium); the HTML is still checked by TestReportContent")
	}
	dir := fixture(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, []byte(render(t, dir, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir()}
	dom, err := exec.Command(chrome, append(flags, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	if n := strings.Count(string(dom), `<tr class="claim">`); n != 3 {
		t.Errorf("the browser's DOM has %d claim rows, want 3", n)
	}
	if !strings.Contains(string(dom), `id="findings"`) {
		t.Error("the browser's DOM has no findings list")
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	if out, err := exec.Command(chrome, append(flags, "--screenshot="+shot, "--window-size=1200,900", "file://"+page)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	png, err := os.ReadFile(shot)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 10_000 {
		t.Errorf("screenshot is not a rendered page (%d bytes, %v)", len(png), err)
	}
}
