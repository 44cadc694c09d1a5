// Package lintcmd is the claimslint command line: it parses arguments, runs
// the checks and formats their findings. It never calls os.Exit; Main
// returns the exit code, so the whole CLI can be tested in process.
//
// Exit codes, in every format: 0 clean (pending claims allowed), 1 findings,
// 2 usage, configuration or I/O error (one line on stderr naming the file).
package lintcmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/claimslint/claimslint/internal/check"
	"github.com/claimslint/claimslint/internal/diag"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/urfave/cli/v2"
)

// Exit codes.
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitError    = 2
)

// exitError carries an exit code through urfave/cli.
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
	err := app.Run(args)
	if err == nil {
		return ExitClean
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "claimslint: %v\n", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "claimslint: %v\n", err)
	return ExitError
}

func newApp(stdout, stderr io.Writer) *cli.App {
	dirFlag := &cli.StringFlag{Name: "dir", Value: ".", Usage: "repository root to check"}
	formatFlag := func(def string, allowed ...string) *cli.StringFlag {
		return &cli.StringFlag{Name: "format", Value: def, Usage: "output format: " + strings.Join(allowed, "|")}
	}
	return &cli.App{
		Name:      "claimslint",
		Usage:     "prove that code still does what the decision register says",
		Writer:    stdout,
		ErrWriter: stderr,
		// The library returns exit codes; it never exits the process.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageErr("%v", err)
		},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(stderr, "claimslint: unknown command %q: run claimslint help\n", name)
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr("unknown command %q: run claimslint help", c.Args().First())
			}
			_ = cli.ShowAppHelp(c)
			return &exitError{code: ExitError}
		},
		Commands: []*cli.Command{
			{
				Name:         "check",
				Usage:        "check the register and every claim; exit 1 on findings",
				Flags:        []cli.Flag{dirFlag, formatFlag("text", format.Names...)},
				OnUsageError: subUsage,
				Action: func(c *cli.Context) error {
					return runCheck(c, stdout, stderr)
				},
			},
			{
				Name:         "prove",
				Usage:        "prove every claim of accepted decisions can fail by mutating its lines in memory; exit 1 on a vacuous claim or any check finding",
				Flags:        []cli.Flag{dirFlag, formatFlag("text", format.Names...), &cli.StringFlag{Name: "decision", Usage: "prove only this decision (D12)"}},
				OnUsageError: subUsage,
				Action: func(c *cli.Context) error {
					return runProve(c, stdout, stderr)
				},
			},
			{
				Name:         "list",
				Usage:        "list every claim with its state and where it anchors now",
				Flags:        []cli.Flag{dirFlag, formatFlag("text", "text", "json")},
				OnUsageError: subUsage,
				Action: func(c *cli.Context) error {
					return runList(c, stdout)
				},
			},
			{
				Name:      "explain",
				Usage:     "print the documentation of a rule",
				ArgsUsage: "CL001",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageErr("explain takes one rule id, such as CL004")
					}
					doc, err := check.Explain(c.Args().First())
					if err != nil {
						return &exitError{ExitError, err}
					}
					fmt.Fprint(stdout, doc)
					return nil
				},
			},
			{
				Name:  "version",
				Usage: "print the module version and commit",
				Action: func(c *cli.Context) error {
					fmt.Fprintln(stdout, "claimslint", Version())
					return nil
				},
			},
		},
	}
}

func subUsage(_ *cli.Context, err error, _ bool) error { return usageErr("%v", err) }

// Version returns the module version and VCS revision from the build info.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

func ruleDocs() []format.RuleDoc {
	out := make([]format.RuleDoc, len(check.Rules))
	for i, r := range check.Rules {
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

func run(c *cli.Context) (*check.Result, error) {
	if c.NArg() > 0 {
		return nil, usageErr("%s takes no arguments (got %q); use --dir DIR", c.Command.Name, c.Args().First())
	}
	res, err := check.Run(check.Options{Dir: c.String("dir")})
	if err != nil {
		return nil, &exitError{ExitError, err}
	}
	return res, nil
}

func runCheck(c *cli.Context, stdout, stderr io.Writer) error {
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
			fmt.Fprintf(stderr, "claimslint: note: %s\n", n)
		}
	}
	if err := format.Write(stdout, f, res.Findings, ruleDocs(), Version()); err != nil {
		return &exitError{ExitError, fmt.Errorf("write output: %w", err)}
	}
	return findingsExit(res.Findings)
}

func runList(c *cli.Context, stdout io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, []string{"text", "json"}); err != nil {
		return err
	}
	res, err := run(c)
	if err != nil {
		return err
	}
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
		line := fmt.Sprintf("%s/%s\t%s\t%s\t%s", s.Decision, s.Claim, s.Kind, s.State, where)
		if s.Message != "" && s.State != check.StateOK {
			line += "\t" + s.Message
		}
		fmt.Fprintln(stdout, line)
	}
	return nil
}

func runProve(c *cli.Context, stdout, stderr io.Writer) error {
	f := c.String("format")
	if err := validFormat(f, format.Names); err != nil {
		return err
	}
	if c.NArg() > 0 {
		return usageErr("prove takes no arguments (got %q); use --decision D12", c.Args().First())
	}
	res, proofs, err := check.Prove(check.Options{Dir: c.String("dir"), Decision: c.String("decision")})
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
		fmt.Fprintf(stderr, "claimslint: prove: %d claims, %d mutants, %d vacuous\n", len(proofs), mutants, vacuous)
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
