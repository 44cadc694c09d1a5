package check

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

// valueOf reads text as a value, so two spellings of one value compare
// equal (D95): an integer expression (literals with _, 0x, 0o, 0b, a
// type suffix; + - * / % << >> and parentheses; KiB, MiB, GiB and Go's
// time units) is its decimal value; a Go or Rust string literal,
// interpreted or raw, is its contents; anything else is its text with
// the spaces at its ends trimmed. kind says which it was read as.
func valueOf(text string) (v string, kind string) {
	s := strings.TrimSpace(text)
	if n, ok := intExpr(s); ok {
		return strconv.FormatInt(n, 10), "integer"
	}
	if str, ok := stringLit(s); ok {
		return str, "string"
	}
	if r, ok := runeLit(s); ok {
		// A rune is its code point, as Go's constants are: ',' is 44.
		return strconv.FormatInt(int64(r), 10), "rune"
	}
	return s, "text"
}

// describeValue names a value for messages: its text, and what it is
// when that differs.
func describeValue(text string) string {
	v, kind := valueOf(text)
	t := strings.TrimSpace(text)
	if kind == "text" || v == t {
		return strconv.Quote(t)
	}
	return strconv.Quote(t) + " (" + kind + " " + strconv.Quote(v) + ")"
}

// stringLit reads a Go or Rust string literal: "…" with escapes, `…`
// (Go raw), r"…" and r#"…"# (Rust raw), b"…" (Rust bytes).
func stringLit(s string) (string, bool) {
	if len(s) < 2 {
		return "", false
	}
	switch {
	case s[0] == '"' || s[0] == '`':
		v, err := strconv.Unquote(s)
		return v, err == nil
	case s[0] == 'b' && s[1] == '"':
		v, err := strconv.Unquote(s[1:])
		return v, err == nil
	case s[0] == 'r' && (s[1] == '"' || s[1] == '#'):
		h := 1
		for h < len(s) && s[h] == '#' {
			h++
		}
		hashes := h - 1
		if h >= len(s) || s[h] != '"' {
			return "", false
		}
		closer := `"` + strings.Repeat("#", hashes)
		body := s[h+1:]
		if !strings.HasSuffix(body, closer) || len(body) < len(closer) {
			return "", false
		}
		return body[:len(body)-len(closer)], true
	}
	return "", false
}

// runeLit reads a Go rune literal ('a', '\x2c', '\u00e9', '\n') or a
// Rust character or byte literal written the same way (b'a').
func runeLit(s string) (rune, bool) {
	s = strings.TrimPrefix(s, "b")
	if len(s) < 3 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return 0, false
	}
	v, err := strconv.Unquote(s)
	if err != nil || utf8.RuneCountInString(v) != 1 {
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(v)
	return r, true
}

// units are the names an integer expression may multiply by.
var units = map[string]int64{
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
	"time.Nanosecond": 1, "time.Microsecond": 1e3, "time.Millisecond": 1e6,
	"time.Second": 1e9, "time.Minute": 60e9, "time.Hour": 3600e9,
}

// maxExprTokens bounds an expression read as a value.
const maxExprTokens = 256

// intExpr evaluates an integer constant expression; ok is false for
// anything else, and on overflow.
func intExpr(s string) (int64, bool) {
	toks, ok := lexExpr(s)
	if !ok || len(toks) == 0 || len(toks) > maxExprTokens {
		return 0, false
	}
	p := &exprParser{toks: toks}
	v, ok := p.sum(0)
	if !ok || p.i != len(toks) {
		return 0, false
	}
	return v, true
}

type exprTok struct {
	op  string // "" for a number
	num int64
}

func lexExpr(s string) ([]exprTok, bool) {
	var out []exprTok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '<' || c == '>':
			if i+1 >= len(s) || s[i+1] != c {
				return nil, false
			}
			out = append(out, exprTok{op: s[i : i+2]})
			i += 2
		case strings.IndexByte("+-*/%()", c) >= 0:
			out = append(out, exprTok{op: string(c)})
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_') {
				j++
			}
			n, ok := intLit(s[i:j])
			if !ok {
				return nil, false
			}
			out = append(out, exprTok{num: n})
			i = j
		case isAlnum(c):
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '.') {
				j++
			}
			u, ok := units[s[i:j]]
			if !ok {
				return nil, false
			}
			// A unit after a number multiplies it: 16 MiB.
			if n := len(out); n > 0 && out[n-1].op == "" || n > 0 && out[n-1].op == ")" {
				out = append(out, exprTok{op: "*"})
			}
			out = append(out, exprTok{num: u})
			i = j
		default:
			return nil, false
		}
	}
	return out, true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// intSuffixes are the type suffixes an integer literal may carry: Rust's
// and C's.
var intSuffixes = []string{"usize", "isize", "u128", "i128", "u64", "i64", "u32", "i32", "u16", "i16", "u8", "i8", "ULL", "ull", "LL", "ll", "UL", "ul", "U", "u", "L", "l"}

// intLit reads one integer literal: decimal, 0x, 0o, 0b (and C's leading
// 0 octal), with _ separators and a type suffix.
func intLit(s string) (int64, bool) {
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "0x") {
		for _, suf := range intSuffixes {
			if t, ok := strings.CutSuffix(s, suf); ok && t != "" {
				s = strings.TrimSuffix(t, "_")
				break
			}
		}
	}
	if strings.Contains(s, "__") || strings.HasSuffix(s, "_") {
		return 0, false
	}
	s = strings.ReplaceAll(s, "_", "")
	base := 10
	switch l := strings.ToLower(s); {
	case strings.HasPrefix(l, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(l, "0o"):
		base, s = 8, s[2:]
	case strings.HasPrefix(l, "0b"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	n, err := strconv.ParseInt(s, base, 64)
	return n, err == nil && s != ""
}

type exprParser struct {
	toks []exprTok
	i    int
}

func (p *exprParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].op
	}
	return "end"
}

// sum reads shifts, sums and products by precedence: << >> bind as Go's
// multiplication does, above + and -.
func (p *exprParser) sum(depth int) (int64, bool) {
	v, ok := p.product(depth)
	for ok {
		op := p.peek()
		if op != "+" && op != "-" {
			return v, true
		}
		p.i++
		var r int64
		if r, ok = p.product(depth); !ok {
			return 0, false
		}
		if op == "+" {
			v, ok = addOK(v, r)
		} else {
			v, ok = addOK(v, -r)
		}
	}
	return 0, false
}

func (p *exprParser) product(depth int) (int64, bool) {
	v, ok := p.unary(depth)
	for ok {
		op := p.peek()
		switch op {
		case "*", "/", "%", "<<", ">>":
		default:
			return v, true
		}
		p.i++
		var r int64
		if r, ok = p.unary(depth); !ok {
			return 0, false
		}
		switch op {
		case "*":
			hi, lo := bits.Mul64(uint64(abs(v)), uint64(abs(r)))
			if hi != 0 || lo > 1<<62 {
				return 0, false
			}
			v *= r
		case "/", "%":
			if r == 0 {
				return 0, false
			}
			if op == "/" {
				v /= r
			} else {
				v %= r
			}
		case "<<":
			if r < 0 || r > 62 || v != 0 && bits.Len64(uint64(abs(v)))+int(r) > 62 {
				return 0, false
			}
			v <<= uint(r)
		case ">>":
			if r < 0 || r > 63 {
				return 0, false
			}
			v >>= uint(r)
		}
	}
	return 0, false
}

func (p *exprParser) unary(depth int) (int64, bool) {
	if depth > 32 {
		return 0, false
	}
	switch p.peek() {
	case "-":
		p.i++
		v, ok := p.unary(depth + 1)
		return -v, ok
	case "+":
		p.i++
		return p.unary(depth + 1)
	case "(":
		p.i++
		v, ok := p.sum(depth + 1)
		if !ok || p.peek() != ")" {
			return 0, false
		}
		p.i++
		return v, true
	case "":
		v := p.toks[p.i].num
		p.i++
		return v, true
	}
	return 0, false
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func addOK(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}
