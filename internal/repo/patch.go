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
	var old, new string
	files := false // a ---/+++ pair was read for this file
	var remOld, remNew, oldN, newN int
	for {
		line, err := readPatchLine(br)
		if err == io.EOF && line == nil {
			if remOld > 0 || remNew > 0 {
				return errors.New("git diff ended inside a hunk")
			}
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("read git diff: %w", err)
		}
		if remOld > 0 || remNew > 0 {
			if len(line) == 0 {
				return errors.New("git diff printed an empty line inside a hunk")
			}
			switch line[0] {
			case '-':
				if remOld == 0 {
					return errors.New("git diff printed more removed lines than its hunk header counts")
				}
				v.Line(old, new, true, oldN, line[1:])
				oldN++
				remOld--
			case '+':
				if remNew == 0 {
					return errors.New("git diff printed more added lines than its hunk header counts")
				}
				v.Line(old, new, false, newN, line[1:])
				newN++
				remNew--
			case ' ':
				if remOld == 0 || remNew == 0 {
					return errors.New("git diff printed more context lines than its hunk header counts")
				}
				oldN++
				newN++
				remOld--
				remNew--
			case '\\': // \ No newline at end of file
			default:
				return fmt.Errorf("git diff printed %q inside a hunk", clipText(string(line)))
			}
			continue
		}
		s := string(line)
		switch {
		case strings.HasPrefix(s, "diff --git "):
			old, new, files = "", "", false
		case strings.HasPrefix(s, "--- "):
			p, err := patchPath(s[4:], "a/")
			if err != nil {
				return err
			}
			old = p
		case strings.HasPrefix(s, "+++ "):
			p, err := patchPath(s[4:], "b/")
			if err != nil {
				return err
			}
			new, files = p, true
		case strings.HasPrefix(s, "@@ "):
			if !files {
				return fmt.Errorf("git diff printed a hunk before the file it belongs to: %q", clipText(s))
			}
			h, err := ParseHunk(s)
			if err != nil {
				return err
			}
			v.Hunk(old, new, h)
			remOld, remNew, oldN, newN = h.OldLines, h.NewLines, h.OldStart, h.NewStart
		}
	}
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
