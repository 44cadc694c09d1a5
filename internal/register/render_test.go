package register

import (
	"strings"
	"testing"
)

func TestRenderHTML(t *testing.T) {
	for _, c := range []struct {
		name, src string
		shift     int
		want, not []string
	}{
		{name: "title dropped, front matter dropped", src: "---\nid: D1\nstatus: accepted\n---\n# D1: Frames\n\nBody text.\n\n## Context\n",
			want: []string{"<p>Body text.</p>", "<h2>Context</h2>"}, not: []string{"D1: Frames", "status: accepted"}},
		{name: "headings shifted", src: "# T\n\n## A\n\n###### Six\n", shift: 2, want: []string{"<h4>A</h4>", "<h6>Six</h6>"}},
		{name: "GFM table and strikethrough", src: "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n",
			want: []string{`<table tabindex="0">`, "<td>1</td>", "<del>old</del>"}},
		{name: "raw HTML omitted", src: "<script>alert(1)</script>\n\ntext <b onclick=x>bold</b>\n",
			want: []string{"raw HTML omitted"}, not: []string{"<script", "onclick", "<b "}},
		{name: "javascript link dropped", src: "[x](javascript:alert(1)) [y](JAVASCRIPT:alert(2))\n", not: []string{"javascript:", "JAVASCRIPT:"}},
		{name: "image becomes a link", src: "![a cat](https://example.invalid/cat.png \"t\")\n",
			want: []string{`<a href="https://example.invalid/cat.png" title="t">a cat</a>`}, not: []string{"<img"}},
		{name: "an image without text", src: "![](x.png)\n", want: []string{`<a href="x.png">image</a>`}},
		{name: "code block scrolls by keyboard", src: "```\n<pre>\n```\n", want: []string{`<pre tabindex="0"><code>&lt;pre&gt;`}},
		{name: "not UTF-8", src: "a \xff b\n", want: []string{"a \uFFFD b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := RenderHTML([]byte(c.src), c.shift)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, n := range c.not {
				if strings.Contains(string(out), n) {
					t.Errorf("output holds %q:\n%s", n, out)
				}
			}
		})
	}
}

// FuzzRenderHTML: no input makes the renderer fail or panic, or write a
// script, an event handler or an image.
func FuzzRenderHTML(f *testing.F) {
	for _, s := range []string{"# t\n\nx", "<script>x</script>", "[a](javascript:b)", "![i](http://x/y)", "| a |\n|---|\n| <img src=x> |\n", "---\nid: D1\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := RenderHTML(src, 1)
		if err != nil {
			t.Fatal(err)
		}
		low := strings.ToLower(string(out))
		for _, bad := range []string{"<script", "<img", " onerror=", " onclick=", "<iframe"} {
			if strings.Contains(low, bad) {
				t.Fatalf("RenderHTML(%q) holds %q:\n%s", src, bad, out)
			}
		}
	})
}

// TestRenderHTMLLinks: every link, and every image once it is a link, goes
// through the site's choice: a new destination, or its text alone.
func TestRenderHTMLLinks(t *testing.T) {
	links := func(dest string) (string, bool) {
		switch dest {
		case "D2-x.md":
			return "D2.html", true
		case "https://example.invalid/":
			return dest, true
		}
		return "", false
	}
	out, err := RenderHTMLLinks([]byte("# T\n\nSee [the *second*](D2-x.md), [figures](../bench.md), [web](https://example.invalid/) and ![a chart](c.png).\n"), 0, links)
	if err != nil {
		t.Fatal(err)
	}
	want := `<p>See <a href="D2.html">the <em>second</em></a>, figures, <a href="https://example.invalid/">web</a> and a chart.</p>`
	if !strings.Contains(string(out), want) {
		t.Errorf("RenderHTMLLinks =\n%s\nwant it to hold\n%s", out, want)
	}
}

// FuzzRenderHTMLLinks: a link whose text is kept alone leaves no link and
// no failure, whatever the text holds.
func FuzzRenderHTMLLinks(f *testing.F) {
	for _, s := range []string{"[a](b)", "[![i](x)](y)", "[a [b](c)](d)", "<http://x>", "[a]: b\n\n[a]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := RenderHTMLLinks(src, 0, func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "<a href=\"") && !strings.Contains(string(src), "://") && !strings.Contains(string(src), "@") {
			t.Fatalf("RenderHTMLLinks(%q) kept a link:\n%s", src, out)
		}
	})
}
