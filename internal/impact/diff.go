package impact

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/claimslint/claimslint/internal/repo"
)

// maxLine is the longest diff line kept whole; the rest of a longer line
// is read and dropped (claimslint reads no file over 4 MiB as code).
const maxLine = 4 << 20

// maxRaw bounds the list of changed files read from git diff --raw.
const maxRaw = 64 << 20

// fileDiff is one file of the change, as git diff --raw lists it.
type fileDiff struct {
	// Status is git's letter: A added, D deleted, M modified, R renamed,
	// C copied, T type changed.
	Status byte
	// Old is the path at the base ("" when added), New the path in the
	// working tree ("" when deleted).
	Old, New         string
	OldMode, NewMode string
	Hunks            []hunk
}

// hunk is one @@ -a,b +c,d @@ range of git's patch (repo.Hunk).
type hunk = repo.Hunk

// parseRaw reads `git diff --raw -z`: for each file
// ":oldmode newmode oldsha newsha STATUS\0path\0" and, for a rename or a
// copy, a second path.
func parseRaw(data []byte) ([]*fileDiff, error) {
	var out []*fileDiff
	data = bytes.TrimSuffix(data, []byte{0})
	if len(data) == 0 {
		return nil, nil
	}
	fields := bytes.Split(data, []byte{0})
	for i := 0; i < len(fields); i++ {
		rec := string(fields[i])
		if !strings.HasPrefix(rec, ":") {
			return nil, fmt.Errorf("git diff --raw printed %q where a file's record belongs", clip(rec))
		}
		parts := strings.Fields(rec[1:])
		if len(parts) != 5 || parts[4] == "" {
			return nil, fmt.Errorf("git diff --raw printed a record claimslint cannot read: %q", clip(rec))
		}
		f := &fileDiff{Status: parts[4][0], OldMode: parts[0], NewMode: parts[1]}
		paths := 1
		if f.Status == 'R' || f.Status == 'C' {
			paths = 2
		}
		if i+paths >= len(fields) {
			return nil, fmt.Errorf("git diff --raw ended inside the record %q", clip(rec))
		}
		a := string(fields[i+1])
		b := a
		if paths == 2 {
			b = string(fields[i+2])
		}
		if a == "" || b == "" {
			return nil, fmt.Errorf("git diff --raw printed an empty path after %q", clip(rec))
		}
		i += paths
		switch f.Status {
		case 'A':
			f.New = b
		case 'D':
			f.Old = a
		case 'M', 'T', 'R', 'C':
			f.Old, f.New = a, b
		default:
			// U (unmerged), X (unknown): a path in conflict has no
			// base-to-tree lines to map; it is listed as changed whole.
			f.Old, f.New = a, b
		}
		out = append(out, f)
	}
	return out, nil
}

// patchVisitor receives what parsePatch reads: each hunk of a file (old
// and new are its paths, "" for /dev/null) and each line it removes from
// the base (deleted) or adds to the working tree, with its line number on
// its side.
type patchVisitor struct {
	hunk func(old, new string, h hunk)
	line func(old, new string, deleted bool, n int, text []byte)
}

// parsePatch reads `git diff --unified=N` output. A hunk's lines are
// counted by its header, so a removed line that reads "--- a/x" is a
// line, never a file header.
func parsePatch(r io.Reader, v patchVisitor) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var old, new string
	files := false // a ---/+++ pair was read for this file
	var remOld, remNew, oldN, newN int
	for {
		line, err := readLine(br)
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
				v.line(old, new, true, oldN, line[1:])
				oldN++
				remOld--
			case '+':
				if remNew == 0 {
					return errors.New("git diff printed more added lines than its hunk header counts")
				}
				v.line(old, new, false, newN, line[1:])
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
				return fmt.Errorf("git diff printed %q inside a hunk", clip(string(line)))
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
				return fmt.Errorf("git diff printed a hunk before the file it belongs to: %q", clip(s))
			}
			h, err := repo.ParseHunk(s)
			if err != nil {
				return err
			}
			v.hunk(old, new, h)
			remOld, remNew, oldN, newN = h.OldLines, h.NewLines, h.OldStart, h.NewStart
		}
	}
}

// readLine returns the next line without its newline, at most maxLine
// bytes of it; nil and io.EOF at the end.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLine {
			buf = append(buf, chunk...)
		} else if len(buf) < maxLine {
			buf = append(buf, chunk[:maxLine-len(buf)]...)
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
		u, err := unquoteC(s)
		if err != nil {
			return "", fmt.Errorf("git diff printed a path claimslint cannot read: %s: %w", clip(s), err)
		}
		s = u
	} else {
		s = strings.TrimSuffix(s, "\t")
	}
	p, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return "", fmt.Errorf("git diff printed a path without its %s prefix: %q", prefix, clip(s))
	}
	return p, nil
}

// unquoteC undoes git's quote_c_style: a string between double quotes in
// which \a \b \t \n \v \f \r \" \\ and \ooo (three octal digits, one
// byte) are escapes. Whatever follows the closing quote must be nothing
// or the tab git writes after a path.
func unquoteC(s string) (string, error) {
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

// clip shortens text quoted in an error message.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
