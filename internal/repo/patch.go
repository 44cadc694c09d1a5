package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxPatchLine is the longest diff line kept whole; the rest of a longer
// line is read and dropped (claimslint reads no file over 4 MiB as code).
const maxPatchLine = 4 << 20

// PatchVisitor receives what ReadPatch reads: each hunk of a file (old
// and new are its paths, "" for /dev/null) and each line it removes from
// the base (deleted) or adds to the working tree, with its line number on
// its side.
type PatchVisitor struct {
	Hunk func(old, new string, h Hunk)
	Line func(old, new string, deleted bool, n int, text []byte)
}

// ReadPatch reads `git diff --unified=N` output (with DiffArgs's a/ and
// b/ prefixes), the one reader of a patch: check --base and impact both
// read theirs here. A hunk's lines are
// counted by its header, so a removed line that reads "--- a/x" is a
// line, never a file header.
func ReadPatch(r io.Reader, v PatchVisitor) error {
	br := bufio.NewReaderSize(r, 64<<10)
	p := patchReader{v: v}
	for {
		line, err := readPatchLine(br)
		if err == io.EOF && line == nil {
			if p.remOld > 0 || p.remNew > 0 {
				return errors.New("git diff ended inside a hunk")
			}
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("read git diff: %w", err)
		}
		if p.remOld > 0 || p.remNew > 0 {
			err = p.hunkLine(line)
		} else {
			err = p.header(string(line))
		}
		if err != nil {
			return err
		}
	}
}

// patchReader is where ReadPatch is in a patch: the file's paths, whether
// its ---/+++ pair was read, and the lines its hunk has still to give.
type patchReader struct {
	v                          PatchVisitor
	old, new                   string
	files                      bool // a ---/+++ pair was read for this file
	remOld, remNew, oldN, newN int
}

// hunkLine reads a line inside a hunk: removed, added or context.
func (p *patchReader) hunkLine(line []byte) error {
	if len(line) == 0 {
		return errors.New("git diff printed an empty line inside a hunk")
	}
	switch line[0] {
	case '-':
		if p.remOld == 0 {
			return errors.New("git diff printed more removed lines than its hunk header counts")
		}
		p.v.Line(p.old, p.new, true, p.oldN, line[1:])
		p.oldN++
		p.remOld--
	case '+':
		if p.remNew == 0 {
			return errors.New("git diff printed more added lines than its hunk header counts")
		}
		p.v.Line(p.old, p.new, false, p.newN, line[1:])
		p.newN++
		p.remNew--
	case ' ':
		if p.remOld == 0 || p.remNew == 0 {
			return errors.New("git diff printed more context lines than its hunk header counts")
		}
		p.oldN++
		p.newN++
		p.remOld--
		p.remNew--
	case '\\': // \ No newline at end of file
	default:
		return fmt.Errorf("git diff printed %q inside a hunk", clipText(string(line)))
	}
	return nil
}

// header reads a line between hunks: a file's diff line, its ---/+++
// paths, or a hunk header.
func (p *patchReader) header(s string) error {
	switch {
	case strings.HasPrefix(s, "diff --git "):
		p.old, p.new, p.files = "", "", false
	case strings.HasPrefix(s, "--- "):
		path, err := patchPath(s[4:], "a/")
		if err != nil {
			return err
		}
		p.old = path
	case strings.HasPrefix(s, "+++ "):
		path, err := patchPath(s[4:], "b/")
		if err != nil {
			return err
		}
		p.new, p.files = path, true
	case strings.HasPrefix(s, "@@ "):
		if !p.files {
			return fmt.Errorf("git diff printed a hunk before the file it belongs to: %q", clipText(s))
		}
		h, err := ParseHunk(s)
		if err != nil {
			return err
		}
		p.v.Hunk(p.old, p.new, h)
		p.remOld, p.remNew, p.oldN, p.newN = h.OldLines, h.NewLines, h.OldStart, h.NewStart
	}
	return nil
}

// readPatchLine returns the next line without its newline, at most maxPatchLine
// bytes of it; nil and io.EOF at the end.
func readPatchLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxPatchLine {
			buf = append(buf, chunk...)
		} else if len(buf) < maxPatchLine {
			buf = append(buf, chunk[:maxPatchLine-len(buf)]...)
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			return bytes.TrimSuffix(buf, []byte{'\n'}), nil
		case io.EOF:
			if len(buf) == 0 {
				return nil, io.EOF
			}
			return buf, io.EOF
		default:
			return nil, err
		}
	}
}

// patchPath reads the path of a "--- " or "+++ " line: /dev/null, or the
// prefix and the path, C-quoted by git when it holds a quote, a
// backslash, a control character or (core.quotepath) a byte over 0x7f.
// git ends a path holding a space with a tab.
func patchPath(s, prefix string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		u, err := UnquoteC(s)
		if err != nil {
			return "", fmt.Errorf("git diff printed a path claimslint cannot read: %s: %w", clipText(s), err)
		}
		s = u
	} else {
		s = strings.TrimSuffix(s, "\t")
	}
	p, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return "", fmt.Errorf("git diff printed a path without its %s prefix: %q", prefix, clipText(s))
	}
	return p, nil
}

// UnquoteC undoes git's quote_c_style: a string between double quotes in
// which \a \b \t \n \v \f \r \" \\ and \ooo (three octal digits, one
// byte) are escapes. Whatever follows the closing quote must be nothing
// or the tab git writes after a path.
func UnquoteC(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' {
		return "", errors.New("not a quoted path")
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			if rest := s[i+1:]; rest != "" && rest != "\t" {
				return "", errors.New("text after the closing quote")
			}
			return b.String(), nil
		case '\\':
			i++
			if i >= len(s) {
				return "", errors.New("a backslash ends it")
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\':
				b.WriteByte(e)
			default:
				if e < '0' || e > '3' || i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
					return "", fmt.Errorf("unknown escape \\%c", e)
				}
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", errors.New("no closing quote")
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// clipText shortens text quoted in an error message.
func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
