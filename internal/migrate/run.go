package migrate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/repo"
)

// readIn reads rel beneath dir through os.Root, so neither the path nor a
// link in it leads outside the repository (D9).
func readIn(dir, rel string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return repo.ReadIn(root, filepath.FromSlash(rel), check.MaxFileSize) // a regular file, bounded, never a FIFO waited on
}

// writeIn writes rel beneath dir through os.Root, making its directory.
func writeIn(dir, rel string, data []byte) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.MkdirAll(filepath.Dir(filepath.FromSlash(rel)), 0o755); err != nil {
		return err
	}
	return root.WriteFile(filepath.FromSlash(rel), data, 0o644)
}

// Load reads and parses one script. rel is repository-relative.
func Load(dir, rel string) (*Gate, error) {
	src, err := readIn(dir, rel)
	if err != nil {
		return nil, fmt.Errorf("read gate %s: %w", rel, err)
	}
	return Parse(filepath.ToSlash(rel), src), nil
}

// Write migrates each script into its claims file and prints what it did:
// the claims written, the choices it made per row, and every row it could
// not translate with the reason. It never overwrites a claims file and
// never touches a script. It returns true when every row of every script
// was translated and written.
func Write(opts Options, scripts []string, w io.Writer) (bool, error) {
	clean := true
	// Every gate is read first: a claims file is checked against the
	// sweeps of all of them, which the scripts keep running (D63).
	var gates []*Gate
	for _, rel := range scripts {
		g, err := Load(opts.Dir, rel)
		if err != nil {
			return false, err
		}
		gates = append(gates, g)
	}
	opts.gates = gates
	for i, rel := range scripts {
		ok, err := writeGate(opts, rel, gates[i], w)
		if err != nil {
			return false, err
		}
		clean = clean && ok
	}
	return clean, nil
}

// writeGate migrates the script rel, read as g, into its claims file and
// prints what it did; it returns true when every row was translated and
// written.
func writeGate(opts Options, rel string, g *Gate, w io.Writer) (bool, error) {
	t, gates := Translate(g, opts), opts.gates
	if g.Decision == "" {
		fmt.Fprintf(w, "%s: not translated: cannot tell which decision it gates: name it d<n>-….sh or write the decision id (D47) in its header comment\n", rel)
		return false, nil
	}
	printCounts(w, rel, g)
	clean := true
	written := false
	var hits []string
	if _, err := os.Stat(filepath.Join(opts.Dir, filepath.FromSlash(t.File))); err == nil {
		fmt.Fprintf(w, "  %s exists: not overwritten (move it away to migrate again)\n", t.File)
		clean = false
	} else if errors.Is(err, fs.ErrNotExist) {
		var b bytes.Buffer
		if err := t.Render(&b); err != nil {
			return false, err
		}
		if err := writeIn(opts.Dir, t.File, b.Bytes()); err != nil {
			return false, fmt.Errorf("write %s: %w", t.File, err)
		}
		written = true
		hits = SweepHits(t.File, b.String(), gates)
	} else {
		return false, fmt.Errorf("write %s: %w", t.File, err)
	}
	if written {
		printWrote(w, t)
	}
	for _, h := range hits {
		fmt.Fprintf(w, "  note: %s\n", h)
	}
	for _, c := range t.Claims {
		if c.Note != "" {
			fmt.Fprintf(w, "  %s %s: %s\n", c.ID, c.Kind, c.Note)
		}
	}
	sort.SliceStable(g.Skipped, func(i, j int) bool { return g.Skipped[i].Line < g.Skipped[j].Line })
	for _, s := range g.Skipped {
		code := s.Code
		if code == "" {
			code = "row"
		}
		fmt.Fprintf(w, "  not translated: %s:%d: %s: %s\n", rel, s.Line, code, s.Reason)
		clean = false
	}
	return clean, nil
}

// printCounts prints a script's rows, translated or not. Every CODE@ row
// is counted, translated or not, however many claims it becomes; the
// other rules the script holds are counted apart (D63).
func printCounts(w io.Writer, rel string, g *Gate) {
	counts := g.counts()
	rows := counts[""]
	fmt.Fprintf(w, "%s: %s, %s, %d translated, %d not translated\n", rel, g.Decision, plural(rows.n, "row"), rows.n-rows.not, rows.not)
	for _, rule := range []string{RuleSweep, RuleAllow, RuleCheck} {
		if c := counts[rule]; c.n > 0 {
			fmt.Fprintf(w, "  %s, %d translated, %d not translated\n", plural(c.n, rule), c.n-c.not, c.not)
		}
	}
}

// printWrote says which claims file was written, with how many claims
// (and allow rows among them).
func printWrote(w io.Writer, t *Translation) {
	allows := 0
	for _, c := range t.Claims {
		if c.Kind == "allow" {
			allows++
		}
	}
	if allows > 0 {
		fmt.Fprintf(w, "  wrote %s (%s, %d of them %s)\n", t.File, plural(len(t.Claims), "claim"), allows, strings.TrimPrefix(plural(allows, "allow row"), fmt.Sprint(allows)+" "))
	} else {
		fmt.Fprintf(w, "  wrote %s (%s)\n", t.File, plural(len(t.Claims), "claim"))
	}
}

// Verdicts of one row in a comparison.
const (
	VerdictOK      = "ok"
	VerdictFail    = "FAIL"
	VerdictPending = "pending"
	VerdictUnknown = "?"
	VerdictNone    = "-"
)

// ClaimState is the outcome check gave one claim, as Compare needs it.
type ClaimState struct {
	State   string // ok, failed, pending, retired
	Message string
}

// CheckFunc runs claimslint check on the repository and returns each
// claim's state keyed "D47/P1".
type CheckFunc func() (map[string]ClaimState, error)

// Compare runs each script as CI does (a bare path, from the repository
// root) and claimslint check on the same tree, and prints both verdicts
// row by row. It returns true when they agree on every row.
func Compare(opts Options, scripts []string, check CheckFunc, w io.Writer) (bool, error) {
	states, err := check()
	if err != nil {
		return false, err
	}
	agree := true
	for _, rel := range scripts {
		g, err := Load(opts.Dir, rel)
		if err != nil {
			return false, err
		}
		out, code, runErr := runScript(opts.Dir, rel)
		fmt.Fprintf(w, "%s (%s): script exit %d", rel, orDash(g.Decision), code)
		if runErr != "" {
			fmt.Fprintf(w, " (%s)", runErr)
		}
		fmt.Fprintln(w)
		codes := rowCodes(g)
		vs := readVerdicts(out, code, codes) // D64: the script's own [CODE] markers
		if how := vs.how(); how != "" {
			fmt.Fprintf(w, "script verdicts: %s\n", how)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ROW\tSCRIPT\tCHECK")
		codes = append(codes, "X1")
		nAgree, nDiffer, nUnknown, nNone := 0, 0, 0, 0
		for _, c := range codes {
			var sv string
			if c == "X1" {
				// The script's own exit status is its verdict on running.
				sv = VerdictOK
				if code == 126 || code == 127 {
					sv = VerdictFail
				}
			} else {
				sv = vs.verdict(c)
			}
			cv := VerdictNone
			if st, ok := states[g.Decision+"/"+c]; ok {
				switch st.State {
				case "ok":
					cv = VerdictOK
				case "pending":
					cv = VerdictPending
				case "failed":
					cv = VerdictFail
				default:
					cv = st.State
				}
			}
			if sv == VerdictUnknown {
				fmt.Fprintf(tw, "%s\t%s\t%s\tcannot tell\n", c, sv, cv)
				nUnknown++
			} else if cv == VerdictNone {
				// A row migrate did not translate has no claim to compare:
				// migrate listed it, and the script keeps checking it.
				fmt.Fprintf(tw, "%s\t%s\t%s\tno claim\n", c, sv, cv)
				nNone++
			} else if sv != cv {
				fmt.Fprintf(tw, "%s\t%s\t%s\tdiffers\n", c, sv, cv)
				nDiffer++
			} else {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", c, sv, cv)
				nAgree++
			}
		}
		if err := tw.Flush(); err != nil {
			return false, err
		}
		fmt.Fprintf(w, "%s %s, %d %s", plural(nAgree, "row"), agreeVerb(nAgree), nDiffer, differVerb(nDiffer))
		if nUnknown > 0 {
			fmt.Fprintf(w, ", %d cannot tell from the script's output", nUnknown)
		}
		if nNone > 0 {
			fmt.Fprintf(w, ", %d have no claim (not translated)", nNone)
		}
		fmt.Fprintln(w)
		if nDiffer > 0 {
			agree = false
		}
	}
	return agree, nil
}

// plural writes "1 sweep family", "2 sweep families".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	switch {
	case strings.HasSuffix(what, "y"):
		what = strings.TrimSuffix(what, "y") + "ies"
	default:
		what += "s"
	}
	return fmt.Sprintf("%d %s", n, what)
}

func orDash(s string) string {
	if s == "" {
		return "no decision"
	}
	return s
}

// rowCodes lists every row code the script has, translated or not, in
// script order.
func rowCodes(g *Gate) []string {
	type at struct {
		code string
		line int
	}
	var all []at
	seen := map[string]bool{}
	for _, r := range g.Rows {
		all = append(all, at{r.Code, r.Line})
		seen[r.Code] = true
	}
	for _, s := range g.Skipped {
		if s.Code != "" && !seen[s.Code] {
			all = append(all, at{s.Code, s.Line})
			seen[s.Code] = true
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].line < all[j].line })
	out := make([]string, len(all))
	for i, a := range all {
		out[i] = a.code
	}
	return out
}

// scriptTimeout bounds one gate's run; tests lower it.
var scriptTimeout = 2 * time.Minute

// maxScriptOutput bounds the output of a gate kept for the comparison.
const maxScriptOutput = 1 << 20

// runScript runs rel as a bare relative path from dir, as CI does, and
// returns its combined output and exit status (126 when it is not
// executable, as a shell reports it). The gate runs in a process group of
// its own: at its timeout the whole group is killed, and so is what it
// left running in the background when it exits, whose open output no
// longer holds the run (D90).
func runScript(dir, rel string) (string, int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), scriptTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "./"+filepath.FromSlash(rel))
	cmd.Dir = dir
	cmd.SysProcAttr = gateProcAttr()
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	cmd.WaitDelay = time.Second
	b := &capped{max: maxScriptOutput}
	cmd.Stdout, cmd.Stderr = b, b
	err := cmd.Run()
	if cmd.Process != nil {
		killGroup(cmd.Process) // what it left in the background
	}
	var ee *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil:
		// The gate exited; a child it left kept its output open.
		return b.String(), cmd.ProcessState.ExitCode(), ""
	case err == nil:
		return b.String(), 0, ""
	case errors.As(err, &ee):
		return b.String(), ee.ExitCode(), ""
	case errors.Is(err, fs.ErrPermission):
		return b.String(), 126, "not executable"
	default:
		return b.String(), 127, oneLine(err.Error())
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// agreeVerb and differVerb are the verbs of migrate --compare's count line.
func agreeVerb(n int) string {
	if n == 1 {
		return "agrees"
	}
	return "agree"
}

func differVerb(n int) string {
	if n == 1 {
		return "differs"
	}
	return "differ"
}

// capped keeps the first max bytes written to it, and says how many more
// there were.
type capped struct {
	max  int
	b    bytes.Buffer
	more int
}

func (c *capped) Write(p []byte) (int, error) {
	n := min(len(p), c.max-c.b.Len())
	c.b.Write(p[:n])
	c.more += len(p) - n
	return len(p), nil
}

func (c *capped) String() string {
	if c.more == 0 {
		return c.b.String()
	}
	return c.b.String() + fmt.Sprintf("\n[%d more bytes of output not kept]\n", c.more)
}
