// Package lintcmd is the claimslint command line: it parses arguments, runs
// the checks and formats their findings. It never calls os.Exit; Main
// returns the exit code, so the whole CLI can be tested in process.
//
// Exit codes, in every format: 0 clean (pending claims allowed), 1 findings,
// 2 usage, configuration or I/O error (one line on stderr naming the file).
package lintcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/audit"
	"github.com/claimslint/claimslint/internal/author"
	"github.com/claimslint/claimslint/internal/buildinfo"
	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/ciworkflow"
	"github.com/claimslint/claimslint/internal/clikit"
	"github.com/claimslint/claimslint/internal/codeline"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/glob"
	"github.com/claimslint/claimslint/internal/impact"
	"github.com/claimslint/claimslint/internal/migrate"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/report"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// Exit codes.
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitError    = 2
)

// exitError carries an exit code through urfave/clikit.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func usageErr(format string, args ...any) error {
	return &exitError{ExitError, fmt.Errorf(format, args...)}
}

// Main runs claimslint with args (args[0] is the program name) and returns
// the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	err := clikit.Run(app, adoptArg(args))
	if err == nil {
		return ExitClean
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			printError(stderr, ee.err)
		}
		return ee.code
	}
	printError(stderr, err)
	return ExitError
}

// printError writes err on stderr after "claimslint: ", on one line,
// escaped (D69): a path or a value in it holding a newline, an ESC or a
// workflow command is printed as \n, \x1b, never over several lines
// (issue 31: a folder name holding two newlines printed three). An error
// that lists several problems (errors.Join, wrapped or not) prints one
// line each, the first after what wraps it.
func printError(stderr io.Writer, err error) {
	msg := err.Error()
	var j interface {
		error
		Unwrap() []error
	}
	if errors.As(err, &j) && strings.HasSuffix(msg, j.Error()) {
		prefix := msg[:len(msg)-len(j.Error())]
		for _, e := range j.Unwrap() {
			if e != nil {
				fmt.Fprintf(stderr, "claimslint: %s\n", format.Escape(prefix+e.Error()))
				prefix = ""
			}
		}
		return
	}
	fmt.Fprintf(stderr, "claimslint: %s\n", format.Escape(msg))
}

func newApp(stdout, stderr io.Writer) *clikit.App {
	dirFlag := &clikit.StringFlag{Name: "dir", Value: ".", Usage: "repository root to check"}
	formatFlag := func(def string, allowed ...string) *clikit.StringFlag {
		return &clikit.StringFlag{Name: "format", Value: def, Usage: "output format: " + strings.Join(allowed, "|")}
	}
	return clikit.New(clikit.Spec{
		Name:    "claimslint",
		Usage:   "prove that code still does what the decision register says",
		Version: buildinfo.Describe,
		Stdout:  stdout,
		Stderr:  stderr,
		UsageError: func(_ string, err error) error {
			if err == nil {
				return &exitError{code: ExitError}
			}
			return usageErr("%v", err)
		},
		Commands: []*clikit.Command{
			{
				Name:  "check",
				Usage: "check the register and every claim; exit 1 on findings",
				Flags: []clikit.Flag{dirFlag, formatFlag("text", format.Names...), &clikit.StringFlag{Name: "base", Usage: "git revision to compare the register with (CL011, CL012, CL014-CL016), e.g. origin/main"}, budgetFlag()},
				Action: func(c *clikit.Context) error {
					return runCheck(c, stdout, stderr)
				},
			},
			{
				Name:  "prove",
				Usage: "prove every claim of accepted decisions can fail by mutating its lines in memory; exit 1 on a vacuous claim or any check finding",
				Flags: []clikit.Flag{dirFlag, formatFlag("text", format.Names...), &clikit.StringFlag{Name: "decision", Usage: "prove only this decision (D12)"}, budgetFlag(),
					&clikit.BoolFlag{Name: "verbose", Usage: "print, per claim, the mutation that killed it (D95)"}},
				Action: func(c *clikit.Context) error {
					return runProve(c, stdout, stderr)
				},
			},
			{
				Name:  "init",
				Usage: "make this repository decision-tracked: .claimslint.yml, docs/PRD.md, a first decision, a doc-lint workflow (never overwrites)",
				Flags: []clikit.Flag{dirFlag,
					&clikit.StringFlag{Name: "prefix", Value: "dk", Usage: "tracker id prefix"},
					&clikit.BoolFlag{Name: "adopt", Usage: "register existing MADR, adr-tools or log4brains records in place (--adopt DIR names their directory; run again to register new ones), or configure an inline register of rows without decision files, inferring its settings from the tree"},
					&clikit.StringFlag{Name: "adopt-dir", Usage: "directory of the records to adopt (what --adopt DIR sets)"},
					&clikit.StringFlag{Name: "source", Value: ciworkflow.DefaultSource, Usage: "repository the generated workflow builds claimslint (and docket) from: a module path, GitHub's owner/name or an https URL; a fork's, if you build from one"},
					&clikit.StringFlag{Name: "ref", Usage: "commit or tag of --source the generated workflow builds claimslint at (default: this binary's commit, else main)"},
					&clikit.StringFlag{Name: "date", Usage: "date in the first decision, YYYY-MM-DD (default today, UTC)"},
					&clikit.BoolFlag{Name: "dry-run", Usage: "print what init would infer and write, as a diff, and change nothing"},
				},
				Action: func(c *clikit.Context) error {
					return runInit(c, stdout)
				},
			},
			{
				Name:      "new",
				Usage:     "write a new decision spec-first: its file, its register row, the live range at every range site",
				ArgsUsage: `"Title"`,
				Flags: []clikit.Flag{dirFlag,
					&clikit.StringFlag{Name: "status", Value: "proposed", Usage: "proposed or accepted"},
					&clikit.StringFlag{Name: "supersedes", Usage: "decision (D43) or clause (D43(6)) this one supersedes; the reciprocal reference is written too"},
					&clikit.BoolFlag{Name: "dry-run", Usage: "print the diff and change nothing"},
					&clikit.BoolFlag{Name: "keep-records", Usage: "with --supersedes, leave an adopted record's file as written: change the register row only"},
					&clikit.StringFlag{Name: "date", Usage: "date in the front matter, YYYY-MM-DD (default today, UTC)"},
					&clikit.StringFlag{Name: "author", Usage: "who writes the record, in an adopted collection's author or decider field (default git's user.name)"},
				},
				Action: func(c *clikit.Context) error {
					return runNew(c, stdout)
				},
			},
			{
				Name:      "accept",
				Usage:     "accept a decision: its file and register row together; refused (exit 1) while its claims do not hold; retires the decision it supersedes",
				ArgsUsage: "D3",
				Flags: []clikit.Flag{dirFlag,
					&clikit.BoolFlag{Name: "dry-run", Usage: "print the diff and change nothing"},
					&clikit.BoolFlag{Name: "keep-records", Usage: "leave a superseded adopted record's file as written: change the register row only"},
				},
				Action: func(c *clikit.Context) error {
					if c.NArg() != 1 {
						return usageErr("accept takes one decision id: claimslint accept D3")
					}
					return runStatus(c, stdout, c.Args().First(), "accepted")
				},
			},
			{
				Name:      "status",
				Usage:     "set a decision's status (" + strings.Join(author.Lifecycle, "|") + "): its file and register row together",
				ArgsUsage: "D3 STATUS",
				Flags: []clikit.Flag{dirFlag,
					&clikit.BoolFlag{Name: "dry-run", Usage: "print the diff and change nothing"},
					&clikit.BoolFlag{Name: "keep-records", Usage: "leave a superseded adopted record's file as written: change the register row only"},
				},
				Action: func(c *clikit.Context) error {
					if c.NArg() != 2 {
						return usageErr("status takes a decision id and a status: claimslint status D3 deprecated (one of %s)", strings.Join(author.Lifecycle, ", "))
					}
					return runStatus(c, stdout, c.Args().Get(0), c.Args().Get(1))
				},
			},
			{
				Name:  "decisions",
				Usage: "list the decisions: id, status, title, claims holding/total, tracker ids",
				Flags: []clikit.Flag{dirFlag, formatFlag("text", "text", "json"),
					&clikit.StringFlag{Name: "status", Usage: "list only decisions of this status"},
				},
				Action: func(c *clikit.Context) error {
					return runDecisions(c, stdout)
				},
			},
			{
				Name:  "audit",
				Usage: "table every tracker id the register names, with its status; exit 1 on dangling ids, placeholders, closed residuals and missing back-links",
				Flags: []clikit.Flag{dirFlag, formatFlag("text", auditFormats...)},
				Action: func(c *clikit.Context) error {
					return runAudit(c, stdout)
				},
			},
			{
				Name:  "report",
				Usage: "write the register as a static, offline site: what needs attention first, a page per decision with its text and claims, the supersession graph, the code view",
				Flags: []clikit.Flag{dirFlag,
					&clikit.StringFlag{Name: "out", Usage: "write the site into directory DIR: new or empty, or one an earlier report wrote (its pages are replaced, the ones no longer written removed)"},
					&clikit.StringFlag{Name: "single", Usage: "write the whole site as one self-contained HTML file (- for stdout)"},
					&clikit.StringFlag{Name: "html", Usage: "the same as --single (kept for earlier users)"},
					&clikit.StringFlag{Name: "base", Usage: "show what the change since revision REV touches (as claimslint impact --base REV), on the index and on each touched decision's page"},
					&clikit.StringFlag{Name: "repo-url", Usage: "repository URL, http or https only; code lines link to URL/blob/<commit>/<path>#L<line>"},
				},
				Action: func(c *clikit.Context) error {
					return runReport(c, stdout)
				},
			},
			{
				Name:  "impact",
				Usage: "list the decisions whose pinned lines, claim rows or text the change since --base touches, even when every claim holds",
				Flags: []clikit.Flag{dirFlag, formatFlag("text", impact.Formats...),
					&clikit.StringFlag{Name: "base", Usage: "git revision the change starts from, e.g. origin/main (required)"},
					&clikit.StringFlag{Name: "head", Usage: "the checked-out commit, with no tracked file changed (default: the working tree)"},
					&clikit.BoolFlag{Name: "fail-on-impact", Usage: "exit 1 when the change touches a decision"},
					&clikit.StringFlag{Name: "links", Usage: "markdown: link decisions, claims and lines to URL{commit}/path#Lline, e.g. https://github.com/OWNER/REPO/blob/{commit}/"},
				},
				Action: func(c *clikit.Context) error {
					return runImpact(c, stdout)
				},
			},
			{
				Name:  "list",
				Usage: "list every claim with its state and where it anchors now",
				Flags: []clikit.Flag{dirFlag, formatFlag("text", "text", "json"),
					&clikit.BoolFlag{Name: "lexers", Usage: "list each file a claim reads with the lexer that reads it (D51) and the claims that read it"},
				},
				Action: func(c *clikit.Context) error {
					return runList(c, stdout)
				},
			},
			{
				Name:      "migrate",
				Usage:     "write one claims file per shell claims gate (every CODE@ row, read by its table: REQUIRE, REQUIRE_ROW, REQUIRE_CONTRACT, FAMILIES, ALLOW, …); --compare runs each script and check and prints both verdicts row by row",
				ArgsUsage: "SCRIPT...",
				Flags: []clikit.Flag{dirFlag,
					&clikit.BoolFlag{Name: "compare", Usage: "run each script and claimslint check on the same tree; exit 1 when a row's verdicts differ"},
				},
				Action: func(c *clikit.Context) error {
					return runMigrate(c, stdout)
				},
			},
			{
				Name:      "explain",
				Usage:     "print the documentation of a rule; with no id, list every rule with what it checks",
				ArgsUsage: "[CL001]",
				Action: func(c *clikit.Context) error {
					if c.NArg() == 0 {
						fmt.Fprint(stdout, check.Index(allRules()))
						return nil
					}
					if c.NArg() != 1 {
						return usageErr("explain takes one rule id, such as CL004, or none to list the rules")
					}
					doc, err := check.Explain(c.Args().First(), allRules())
					if err != nil {
						return &exitError{ExitError, err}
					}
					fmt.Fprint(stdout, doc)
					return nil
				},
			},
		},
	})
}

// dirOf is the repository root a command works on: --dir when given,
// else the nearest directory above the working directory that holds
// .claimslint.yml or .git, so claimslint runs from any subdirectory.
func dirOf(c *clikit.Context) string {
	if c.IsSet("dir") {
		return c.String("dir")
	}
	root, err := repo.FindRoot(c.String("dir"))
	if err != nil {
		return c.String("dir")
	}
	return root
}

// adoptArg rewrites "init --adopt DIR" and "init --adopt=DIR" into the
// --adopt-dir flag: --adopt alone stays a switch.
func adoptArg(args []string) []string {
	if len(args) < 2 || args[1] != "init" {
		return args
	}
	out := append([]string{}, args[:2]...)
	for i := 2; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "--adopt=") || strings.HasPrefix(a, "-adopt="):
			out = append(out, "--adopt", "--adopt-dir", a[strings.IndexByte(a, '=')+1:])
		case (a == "--adopt" || a == "-adopt") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
			out = append(out, "--adopt", "--adopt-dir", args[i+1])
			i++
		default:
			out = append(out, a)
		}
	}
	return out
}

// budgetFlag bounds a run's time (D70): past it the run stops, and one
// finding (exit 1) names the claim and the file it had reached.
// A flag is made per app: urfave writes to a flag as it parses, so one
// shared between two runs at once would race.
func budgetFlag() clikit.Flag {
	return &clikit.DurationFlag{Name: "budget", Value: check.DefaultBudget, Usage: "stop when the run takes longer than this: a finding names the claim and file it reached (exit 1)"}
}

// Version returns the module version and VCS revision from the build info.
func Version() string { return buildinfo.Version() }

// allRules is every rule claimslint reports: check's and audit's.
func allRules() []*check.Rule { return append(append([]*check.Rule{}, check.Rules...), audit.Rule) }

func ruleDocs() []format.RuleDoc {
	rules := allRules()
	out := make([]format.RuleDoc, len(rules))
	for i, r := range rules {
		out[i] = format.RuleDoc{ID: r.ID, Name: r.Name, Doc: r.Doc}
	}
	return out
}

func validFormat(name string, allowed []string) error {
	for _, a := range allowed {
		if name == a {
			return nil
		}
	}
	return usageErr("unknown format %q: want %s", name, strings.Join(allowed, ", "))
}

func run(c *clikit.Context) (*check.Result, error) {
	if c.NArg() > 0 {
		return nil, usageErr("%s takes no arguments (got %q); use --dir DIR", c.Command.Name, c.Args().First())
	}
	opts := check.Options{Dir: dirOf(c), Budget: c.Duration("budget")}
	if c.Command.Name == "check" {
		opts.Base = c.String("base")
	}
	res, err := check.Run(opts)
	if err != nil {
		return nil, &exitError{ExitError, err}
	}
	return res, nil
}

func runCheck(c *clikit.Context, stdout, stderr io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, format.Names); err != nil {
		return err
	}
	res, err := run(c)
	if err != nil {
		return err
	}
	if f == "text" {
		for _, n := range res.Notes {
			fmt.Fprintf(stderr, "claimslint: note: %s\n", format.Escape(n))
		}
	}
	if err := format.Write(stdout, f, res.Findings, ruleDocs(), Version()); err != nil {
		return &exitError{ExitError, fmt.Errorf("write output: %w", err)}
	}
	return findingsExit(res.Findings)
}

func runMigrate(c *clikit.Context, stdout io.Writer) error {
	if c.NArg() == 0 {
		return usageErr("migrate takes the gate scripts to translate: claimslint migrate scripts/checks/*-claims.sh")
	}
	dir := c.String("dir")
	cfg, err := config.Load(dir)
	if err != nil {
		return &exitError{ExitError, err}
	}
	opts := migrate.Options{Dir: dir, ClaimsDir: cfg.ClaimsDir(), TrackerExport: cfg.Tracker.Export, Prefixes: cfg.Tracker.Prefixes}
	var scripts []string
	for _, a := range c.Args().Slice() {
		rel, err := repoRelative(dir, a)
		if err != nil {
			return usageErr("%v", err)
		}
		scripts = append(scripts, rel)
	}
	var ok bool
	if c.Bool("compare") {
		ok, err = migrate.Compare(opts, scripts, func() (map[string]migrate.ClaimState, error) {
			res, err := check.Run(check.Options{Dir: dir})
			if err != nil {
				return nil, err
			}
			out := map[string]migrate.ClaimState{}
			for _, st := range res.Claims {
				out[st.Decision+"/"+st.Claim] = migrate.ClaimState{State: st.State, Message: st.Message}
			}
			return out, nil
		}, stdout)
	} else {
		ok, err = migrate.Write(opts, scripts, stdout)
	}
	if err != nil {
		return &exitError{ExitError, err}
	}
	if !ok {
		return &exitError{code: ExitFindings}
	}
	return nil
}

// repoRelative turns a script argument, given relative to the working
// directory, into a path relative to the repository root dir.
func repoRelative(dir, arg string) (string, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absDir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is not inside the repository %s", arg, dir)
	}
	return filepath.ToSlash(rel), nil
}

func runList(c *clikit.Context, stdout io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, []string{"text", "json"}); err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usageErr("list takes no arguments (got %q); use --dir DIR", c.Args().First())
	}
	snap, err := snapshot.Load(dirOf(c))
	if err != nil {
		return &exitError{ExitError, err}
	}
	if c.Bool("lexers") {
		return listLexers(snap, f, stdout)
	}
	res := check.Claims(snap, "")
	if f == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		claims := res.Claims
		if claims == nil {
			claims = []check.ClaimState{}
		}
		return enc.Encode(claims)
	}
	for _, s := range res.Claims {
		where := strings.Join(s.Where, " ")
		if where == "" {
			where = "-"
		}
		line := fmt.Sprintf("%s/%s\t%s\t%s\t%s", format.Escape(s.Decision), format.Escape(s.Claim), format.Escape(s.Kind), s.State, format.Escape(where))
		if s.Message != "" && s.State != check.StateOK {
			line += "\t" + format.Escape(s.Message)
		}
		fmt.Fprintln(stdout, line)
	}
	return nil
}

// claimedFile is one file some claim reads, and the lexer that reads it.
type claimedFile struct {
	Path   string   `json:"path"`
	Lexer  string   `json:"lexer"`
	Claims []string `json:"claims"`
}

// listLexers writes every file that a claim's Path matches, with the name
// of the lexer that separates its code from its comments, strings and
// tests (D51), and the claims that read it, sorted by path.
func listLexers(snap *snapshot.Snapshot, f string, stdout io.Writer) error {
	byPath := map[string]*claimedFile{}
	for _, d := range snap.Decisions {
		for _, cl := range d.Claims {
			if cl.Path == "" || !check.ReadsLines(cl.Kind) || glob.Valid(cl.Path) != "" {
				continue
			}
			for _, p := range snap.Match(cl.Path) {
				cf := byPath[p]
				if cf == nil {
					var head []byte
					if path.Ext(p) == "" {
						// Only a file without an extension is known by its
						// shebang line.
						head, _ = snap.Repo.ReadFile(p, check.MaxFileSize)
					}
					cf = &claimedFile{Path: p, Lexer: codeline.Name(p, head)}
					byPath[p] = cf
				}
				cf.Claims = append(cf.Claims, cl.Decision+"/"+cl.ID)
			}
		}
	}
	files := make([]*claimedFile, 0, len(byPath))
	for _, cf := range byPath {
		files = append(files, cf)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	if f == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(files)
	}
	for _, cf := range files {
		fmt.Fprintf(stdout, "%s\t%s\t%s\n", format.Escape(cf.Path), cf.Lexer, format.Escape(strings.Join(cf.Claims, " ")))
	}
	return nil
}

func runProve(c *clikit.Context, stdout, stderr io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, format.Names); err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usageErr("prove takes no arguments (got %q); use --decision D12", c.Args().First())
	}
	res, proofs, err := check.Prove(check.Options{Dir: dirOf(c), Decision: c.String("decision"), Budget: c.Duration("budget")})
	if err != nil {
		return &exitError{ExitError, err}
	}
	if err := format.Write(stdout, f, res.Findings, ruleDocs(), Version()); err != nil {
		return &exitError{ExitError, fmt.Errorf("write output: %w", err)}
	}
	if f == "text" {
		mutants, vacuous := 0, 0
		for _, p := range proofs {
			mutants += p.Mutants
			if p.State == check.ProofVacuous {
				vacuous++
			}
		}
		if c.Bool("verbose") {
			for _, p := range proofs {
				if p.State == check.ProofVacuous {
					fmt.Fprintf(stderr, "%s/%s\t%s\tvacuous: green when %s\n", p.Decision, p.Claim, format.Escape(p.Kind), format.Escape(p.Survivor))
					continue
				}
				fmt.Fprintf(stderr, "%s/%s\t%s\tkilled by: %s (%d of %d mutants)\n", p.Decision, p.Claim, format.Escape(p.Kind), format.Escape(p.KilledBy), p.Killed, p.Mutants)
			}
		}
		fmt.Fprint(stderr, "claimslint: prove: "+format.Count(len(proofs), "claim")+", "+format.Count(mutants, "mutant")+", "+strconv.Itoa(vacuous)+" vacuous\n")
	}
	return findingsExit(res.Findings)
}

// findingsExit is the one place findings become an exit code: error
// findings exit 1; warnings and notes do not fail the run.
func findingsExit(fs []diag.Finding) error {
	if diag.Errors(fs) > 0 {
		return &exitError{code: ExitFindings}
	}
	return nil
}

func runNew(c *clikit.Context, stdout io.Writer) error {
	if c.NArg() != 1 {
		return usageErr(`new takes one quoted title: claimslint new "Answer every frame"`)
	}
	o := author.NewOptions{Dir: dirOf(c), Title: c.Args().First(), Status: c.String("status"), Supersedes: c.String("supersedes"), KeepRecords: c.Bool("keep-records"), Author: c.String("author")}
	if !c.IsSet("author") {
		o.Author = repo.UserName(o.Dir)
	}
	if d := c.String("date"); d != "" {
		t, err := time.Parse("2006-01-02", d)
		if err != nil {
			return usageErr("--date %q: want YYYY-MM-DD", d)
		}
		o.Date = t
	}
	plan, err := author.New(o)
	if err != nil {
		return &exitError{ExitError, err}
	}
	if plan.Existing != "" {
		fmt.Fprintf(stdout, "%s already exists: %s (nothing changed)\n", plan.ID, format.Escape(plan.Existing))
		return nil
	}
	if c.Bool("dry-run") {
		_, err := stdout.Write(plan.Diff())
		return err
	}
	// Uncommitted changes are fine: the plan was made from the files as
	// they are now, so it keeps them; it only refuses to replace a file it
	// did not read (the new decision's own file, checked when planning).
	if err := plan.Apply(o.Dir); err != nil {
		return &exitError{ExitError, err}
	}
	fmt.Fprintf(stdout, "created %s: %s\n", plan.ID, format.Escape(plan.File))
	for _, p := range plan.Paths() {
		fmt.Fprintf(stdout, "updated %s\n", format.Escape(p))
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(stdout, "note: %s\n", format.Escape(n))
	}
	return nil
}

func runAudit(c *clikit.Context, stdout io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, auditFormats); err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usageErr("audit takes no arguments (got %q); use --dir DIR", c.Args().First())
	}
	rep, err := audit.Run(dirOf(c))
	if err != nil {
		return &exitError{ExitError, err}
	}
	if i := slices.IndexFunc(auditWriters, func(a auditWriter) bool { return a.name == f }); i >= 0 {
		err = auditWriters[i].write(rep, stdout)
	} else {
		// sarif, github, code-climate, junit-xml, checkstyle: the
		// problems as findings, through the formatters check uses.
		err = format.Write(stdout, f, rep.Findings(), ruleDocs(), Version())
	}
	if err != nil {
		return &exitError{ExitError, fmt.Errorf("write output: %w", err)}
	}
	if len(rep.Problems) > 0 {
		return &exitError{code: ExitFindings}
	}
	return nil
}

// auditWriter is one of audit's own formats: its table (text, markdown)
// and its JSON document (D103: one value each, the list derived).
type auditWriter struct {
	name  string
	write func(rep *audit.Report, w io.Writer) error
}

var auditWriters = []auditWriter{
	{"text", (*audit.Report).WriteText},
	{"json", (*audit.Report).WriteJSON},
	{"markdown", (*audit.Report).WriteMarkdown},
}

// auditFormats: audit's own formats, then the finding formats every
// command shares that audit does not write its own way.
var auditFormats = func() []string {
	var out []string
	for _, a := range auditWriters {
		out = append(out, a.name)
	}
	for _, name := range format.Names {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}()

// pinWords are the notes init prints about a ref it read from the binary
// (commit, "" when none is known) rather than one the user named: no commit
// means main, which is not pinned; uncommitted changes mean the commit is
// not the binary; and init cannot know that url publishes the commit (D85).
func pinWords(url, commit string, modified bool, from string) []string {
	if commit == "" {
		return []string{"the workflow builds claimslint at main, which is not pinned: no commit is known for this binary; give --ref the commit you reviewed"}
	}
	var out []string
	if modified {
		out = append(out, fmt.Sprintf("the workflow pins commit %s, read from %s, which had uncommitted changes: CI will build that commit, not this binary; commit them or give --ref", commit, from))
	}
	// init asks no network: it cannot know the source publishes the commit.
	return append(out, fmt.Sprintf("the workflow fetches commit %s from %s; init cannot know that it is published there (it was read from %s): if it is only in your clone or a fork, push it and give --source REPO --ref COMMIT", commit, url, from))
}

func runInit(c *clikit.Context, stdout io.Writer) error {
	if c.NArg() > 0 {
		return usageErr("init takes no arguments (got %q); use --dir DIR", c.Args().First())
	}
	o := author.InitOptions{Dir: dirOf(c), Prefix: c.String("prefix"), Adopt: c.Bool("adopt") || c.String("adopt-dir") != "", AdoptDir: c.String("adopt-dir"), Source: c.String("source"), Ref: c.String("ref")}
	url, err := ciworkflow.SourceURL(o.Source)
	if err != nil {
		return usageErr("%v", err)
	}
	var pinNotes []string
	if o.Ref == "" {
		commit, modified, from := buildinfo.Commit()
		o.Ref = commit
		pinNotes = pinWords(url, commit, modified, from)
	}
	if msg := ciworkflow.ValidRef(o.Ref); o.Ref != "" && msg != "" {
		return usageErr("%s", msg)
	}
	if d := c.String("date"); d != "" {
		t, err := time.Parse("2006-01-02", d)
		if err != nil {
			return usageErr("--date %q: want YYYY-MM-DD", d)
		}
		o.Date = t
	}
	plan, err := author.Init(o)
	if err != nil {
		return &exitError{ExitError, err}
	}
	for _, in := range plan.Inferred {
		fmt.Fprintf(stdout, "inferred %s: %s  # %s\n", in.Key, format.Escape(in.Value), format.Escape(in.Why))
	}
	for _, l := range plan.Summary {
		fmt.Fprintf(stdout, "%s\n", format.Escape(l))
	}
	if c.Bool("dry-run") {
		for _, a := range plan.Adopted {
			fmt.Fprintf(stdout, "adopted %s\n", format.Escape(a))
		}
		for _, n := range plan.Notes {
			fmt.Fprintf(stdout, "note: %s\n", format.Escape(n))
		}
		fmt.Fprint(stdout, plan.Addition)
		_, err := stdout.Write(plan.Diff())
		return err
	}
	if err := plan.Apply(o.Dir); err != nil {
		return &exitError{ExitError, err}
	}
	if plan.WritesWorkflow() {
		for _, n := range pinNotes {
			fmt.Fprintf(c.App.ErrWriter, "claimslint: note: %s\n", format.Escape(n))
		}
	}
	if plan.Inferred != nil {
		// init --adopt on an inline register: the configuration, and the
		// steps added to the workflow that runs the old gates.
		for _, ch := range plan.Changes {
			verb := "created"
			if ch.Old != nil {
				verb = "updated"
			}
			fmt.Fprintf(stdout, "%s %s\n", verb, format.Escape(ch.Path))
		}
		for _, n := range plan.Notes {
			fmt.Fprintf(stdout, "note: %s\n", format.Escape(n))
		}
		fmt.Fprint(stdout, plan.Addition)
		for _, n := range plan.Next {
			fmt.Fprintln(stdout, format.Escape(n))
		}
		return nil
	}
	for _, a := range plan.Adopted {
		fmt.Fprintf(stdout, "adopted %s\n", format.Escape(a))
	}
	for _, ch := range plan.Changes {
		if ch.Old == nil {
			fmt.Fprintf(stdout, "created %s\n", format.Escape(ch.Path))
		} else {
			fmt.Fprintf(stdout, "updated %s\n", format.Escape(ch.Path))
		}
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(stdout, "note: %s\n", format.Escape(n))
	}
	if plan.ID == "" {
		return nil // init --adopt again: only new records were registered
	}
	fmt.Fprintln(stdout, "next: claimslint check, then claimslint new \"Your first real decision\"")
	fmt.Fprintln(stdout, "tracker: decisions cite issue ids (dk-...) from .knowledge/tracker/issues.jsonl; start it with docket init --prefix "+o.Prefix+" (docket builds from the same source as claimslint), or set tracker.format: github or beads in .claimslint.yml")
	return nil
}

func runReport(c *clikit.Context, stdout io.Writer) error {
	if c.NArg() > 0 {
		return usageErr("report takes no arguments (got %q); use --out DIR or --single FILE", c.Args().First())
	}
	single, html, out := c.String("single"), c.String("html"), c.String("out")
	if html != "" {
		if single != "" {
			return usageErr("--html is --single under its earlier name: give one of them")
		}
		single = html
	}
	if (single == "") == (out == "") {
		return usageErr("report writes a site: give --out DIR (a directory of pages) or --single FILE (one file), not both and not neither")
	}
	o := report.Options{Dir: dirOf(c), RepoURL: c.String("repo-url"), Now: time.Now(), Base: c.String("base"), Notes: c.App.ErrWriter}
	if o.RepoURL != "" {
		if err := report.CheckRepoURL(o.RepoURL); err != nil {
			return &exitError{ExitError, err}
		}
	}
	if out != "" {
		files, err := report.WriteDir(out, o)
		if err != nil {
			return &exitError{ExitError, err}
		}
		fmt.Fprintf(stdout, "wrote %s into %s\n", format.Count(len(files), "file"), format.Escape(out))
		return nil
	}
	if single != "-" {
		if err := report.WriteSingle(single, o); err != nil {
			return &exitError{ExitError, err}
		}
		fmt.Fprintf(stdout, "wrote %s\n", format.Escape(single))
		return nil
	}
	var buf strings.Builder
	if err := report.Write(&buf, o); err != nil {
		return &exitError{ExitError, err}
	}
	_, err := io.WriteString(stdout, buf.String())
	return err
}

// runStatus moves decision id to status (accept, status; D78).
func runStatus(c *clikit.Context, stdout io.Writer, id, status string) error {
	dir := dirOf(c)
	plan, err := author.SetStatus(author.StatusOptions{Dir: dir, ID: id, Status: status, KeepRecords: c.Bool("keep-records")})
	if err != nil {
		return &exitError{ExitError, err}
	}
	if len(plan.Unheld) > 0 {
		fmt.Fprintf(stdout, "%s is not accepted (nothing changed): accepted, check would report\n", format.Escape(plan.ID))
		for _, f := range plan.Unheld {
			msg := f.Message
			if f.Claim != "" && !strings.HasPrefix(msg, f.Decision+"/"+f.Claim) {
				msg = f.Decision + "/" + f.Claim + ": " + msg
			}
			fmt.Fprintf(stdout, "%s:%d: %s (%s)\n", format.Escape(f.Pos.Filename), f.Pos.Line, format.Escape(msg), f.Check)
		}
		return &exitError{code: ExitFindings}
	}
	if plan.Existing != "" {
		fmt.Fprintf(stdout, "%s is already %s (nothing changed)\n", format.Escape(plan.ID), status)
		return nil
	}
	if c.Bool("dry-run") {
		_, err := stdout.Write(plan.Diff())
		return err
	}
	if err := plan.Apply(dir); err != nil {
		return &exitError{ExitError, err}
	}
	fmt.Fprintf(stdout, "%s: %s -> %s\n", format.Escape(plan.ID), format.Escape(plan.From), status)
	for _, r := range plan.Retired {
		fmt.Fprintf(stdout, "%s: superseded by %s\n", format.Escape(r), format.Escape(plan.ID))
	}
	for _, p := range plan.Paths() {
		fmt.Fprintf(stdout, "updated %s\n", format.Escape(p))
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(stdout, "note: %s\n", format.Escape(n))
	}
	return nil
}

// decisionsDoc is the JSON document of claimslint decisions (D78).
type decisionsDoc struct {
	Decisions []author.DecisionInfo `json:"decisions"`
}

func runDecisions(c *clikit.Context, stdout io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, []string{"text", "json"}); err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usageErr("decisions takes no arguments (got %q); use --status S", c.Args().First())
	}
	ds, err := author.Decisions(dirOf(c), c.String("status"))
	if err != nil {
		return &exitError{ExitError, err}
	}
	if f == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(decisionsDoc{Decisions: ds})
	}
	ids := func(l []string) string {
		if len(l) == 0 {
			return "-"
		}
		return format.Escape(strings.Join(l, " "))
	}
	for _, d := range ds {
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%d/%d\t%s\t%s\n", format.Escape(d.ID), format.Escape(d.Status), format.Escape(d.Title), d.Holding, d.Total, ids(d.Tracker), ids(d.Residuals))
	}
	return nil
}

// runImpact prints what the change since --base touches (D84): exit 0
// whether or not it touches a decision (it is information, not a gate),
// 1 with --fail-on-impact when it does, 2 for a usage error or a
// revision that names no commit.
func runImpact(c *clikit.Context, stdout io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, impact.Formats); err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usageErr("impact takes no arguments (got %q); use --base REV", c.Args().First())
	}
	if c.String("base") == "" {
		return usageErr("impact needs --base REV: the revision the change starts from, such as origin/main")
	}
	links := c.String("links")
	if err := impact.ValidLinks(links); err != nil {
		return usageErr("--links %s", err)
	}
	res, err := impact.Compute(context.Background(), impact.Options{Dir: dirOf(c), Base: c.String("base"), Head: c.String("head"), Links: links})
	if err != nil {
		return &exitError{ExitError, err}
	}
	if err := impact.Write(stdout, f, res); err != nil {
		return &exitError{ExitError, fmt.Errorf("write output: %w", err)}
	}
	if c.Bool("fail-on-impact") && len(res.Decisions) > 0 {
		return &exitError{code: ExitFindings}
	}
	return nil
}
