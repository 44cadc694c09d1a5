// Package cli is docket's command line: it parses arguments, opens the
// store and prints results, and returns an exit code instead of exiting, so
// cmd/docket stays a one-line main and tests run it in process.
//
// It is built on internal/clikit, the command-line stack it shares with
// claimslint (D77): one help style, --version, did-you-mean, completion.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claimslint/claimslint/internal/buildinfo"
	"github.com/claimslint/claimslint/internal/clikit"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/memindex"
	"github.com/claimslint/claimslint/server/sqlite"
)

// Exit codes, the same scheme as claimslint's (D5).
const (
	ExitOK       = 0
	ExitNo       = 1 // export --check found drift, an --if-version conflict, a merge collision
	ExitBadInput = 2 // bad input or usage, or the tool failed; nothing was changed
	// ExitUnexported: the write is committed to the index (and its result
	// printed), but the export could not be rewritten; the next docket
	// command rewrites it from the index.
	ExitUnexported = 3
)

// Version is reported to MCP clients and by docket version; when not set
// with -ldflags "-X github.com/claimslint/claimslint/server/cli.Version=v1.2.3"
// it comes from the build info (the module version go install recorded).
var Version = ""

// BuildVersion returns Version, or the module version and VCS revision from
// the build info, as claimslint version does.
func BuildVersion() string {
	if Version != "" {
		return Version
	}
	return buildinfo.Version()
}

// Default locations, relative to the repository root.
const (
	DefaultDB     = ".docket/index.db"
	DefaultExport = ".knowledge/tracker/issues.jsonl"
)

// Env is what a command needs from its surroundings. Main fills it from the
// process; tests fill it themselves.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Getwd          func() (string, error)
}

type command struct {
	name, args, help string
	run              func(ctx context.Context, e *runner, c *clikit.Context, args []string) error
	flags            func(o *opts) []clikit.Flag
	subcommands      []command
}

// opts holds every flag any command takes; each command registers the ones
// it uses.
type opts struct {
	db, export, prefix            string
	cmdDB, cmdExport              string // --db and --export given after the command
	json                          bool
	desc, typ, status, title      string
	priority                      int
	labels, decisions             []string
	removeLabels, removeDecisions []string
	ifVersion                     int64
	reason, author, format        string
	label, decision               string
	all, check, dryRun            bool
	writeConfig                   bool
	out                           string
	mcp                           mcpOpts
	limit                         int
	cursor, sort, fields          string
}

// mcpOpts are docket mcp's flags.
type mcpOpts struct {
	maxInFlight, maxReplyMiB, maxSessions int
	maxConns, maxConnsPerAddr             int
	http, tokenFile                       string
	allowOrigins                          []string
	readOnly                              bool
	bodyTimeout, sessionIdle              time.Duration
	writeTimeout                          time.Duration
}

// exitCodes is the table docket's help ends with (D17).
const exitCodes = "exit codes: 0 ok; 1 export --check drift, --if-version conflict or merge collision; 2 bad input or failure, nothing changed;\n3 the change is committed to the index but the export could not be rewritten (the next command rewrites it)"

// Main runs docket with args (args[0] is the program name) and returns the
// exit code.
func Main(args []string, env Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if env.Getwd == nil {
		env.Getwd = os.Getwd
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if len(args) > 1 && args[1] == mcp.CheckChildCommand {
		// docket mcp's own child: one register check, killed when its
		// request is cancelled (D71).
		return mcp.RunCheckChild(args[2:], env.Stdout, env.Stderr)
	}
	r := &runner{env: env}
	if len(args) < 1 {
		args = []string{"docket"}
	}
	err := clikit.Run(r.app(), args)
	if r.store != nil {
		if cerr := r.store.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return r.exit(err)
}

// app is docket's command line on the shared stack; --db and --export may
// also come before the command.
func (r *runner) app() *clikit.App {
	var cmds []*clikit.Command
	all := commands()
	for _, c := range all {
		cmds = append(cmds, r.command(c))
	}
	return clikit.New(clikit.Spec{
		Name:        "docket",
		Usage:       "the repository's issue tracker: a SQLite index under .docket/ and a JSONL export git merges by id",
		Description: exitCodes + "\ndocket help COMMAND (or docket COMMAND --help) shows a command's flags.",
		Version:     describeBuild,
		Stdout:      r.env.Stdout,
		Stderr:      r.env.Stderr,
		Flags: []clikit.Flag{
			&clikit.StringFlag{Name: "db", Destination: &r.o.db, Usage: dbUsage},
			&clikit.StringFlag{Name: "export", Destination: &r.o.export, Usage: exportUsage},
		},
		Commands: cmds,
		UsageError: func(cmd string, err error) error {
			r.name = cmd
			if err == nil {
				return &exitError{code: ExitBadInput}
			}
			msg := err.Error()
			if c, ok := commandNamed(cmd); ok && c.args != "" {
				msg += "\nusage: docket " + cmd + " " + c.args
			}
			return &exitError{ExitBadInput, msg}
		},
	})
}

const (
	dbUsage     = "SQLite index `path` (default $DOCKET_DB or <root>/" + DefaultDB + ")"
	exportUsage = "JSONL export `path` (default $DOCKET_EXPORT, else .claimslint.yml's tracker.export, else <root>/" + DefaultExport + ")"
)

// command is c on the shared stack: its flags, --db and --export, and an
// action that runs it with the positional arguments.
func (r *runner) command(c command) *clikit.Command {
	flags := []clikit.Flag{
		&clikit.StringFlag{Name: "db", Destination: &r.o.cmdDB, Usage: dbUsage},
		&clikit.StringFlag{Name: "export", Destination: &r.o.cmdExport, Usage: exportUsage},
	}
	if c.flags != nil {
		flags = append(c.flags(&r.o), flags...)
	}
	usage, more, _ := strings.Cut(c.help, "\n")
	desc := ""
	if more != "" {
		desc = usage + "\n" + more
	}
	// The command list reads as claimslint's: lower case, no full stop.
	if usage != "" {
		usage = strings.ToLower(usage[:1]) + strings.TrimSuffix(usage[1:], ".")
	}
	cmd := &clikit.Command{
		Name:        c.name[strings.LastIndexByte(c.name, ' ')+1:],
		Usage:       usage,
		Description: desc,
		ArgsUsage:   positional(c.args),
		Flags:       flags,
	}
	for _, sub := range c.subcommands {
		cmd.Subcommands = append(cmd.Subcommands, r.command(sub))
	}
	if c.run == nil {
		return cmd
	}
	cmd.Action = func(ctx *clikit.Context) error {
		r.name = c.name
		if r.o.cmdDB != "" {
			r.o.db = r.o.cmdDB
		}
		if r.o.cmdExport != "" {
			r.o.export = r.o.cmdExport
		}
		r.o.labels = append(ctx.StringSlice("l"), ctx.StringSlice("add-label")...)
		r.o.removeLabels = ctx.StringSlice("remove-label")
		r.o.decisions = ctx.StringSlice("decision")
		r.o.removeDecisions = ctx.StringSlice("remove-decision")
		r.o.mcp.allowOrigins = ctx.StringSlice("allow-origin")
		return c.run(context.Background(), r, ctx, ctx.Args().Slice())
	}
	return cmd
}

// positional is the positional part of a usage line: what comes before its
// first flag.
func positional(args string) string {
	var out []string
	for _, f := range strings.Fields(args) {
		if strings.HasPrefix(f, "-") || strings.HasPrefix(f, "[-") {
			break
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}

type runner struct {
	env   Env
	name  string // the command run, for messages: "list", "dep add"
	o     opts
	store *docket.Service
	cfg   *config.Config // .claimslint.yml, once loaded
	// warned: the committed index was reported once already.
	warned bool
}

// exitError carries a chosen exit code and an already-worded message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func (r *runner) exit(err error) int {
	if err == nil {
		return ExitOK
	}
	prefix := "docket"
	if r.name != "" {
		prefix += " " + r.name
	}
	if errors.Is(err, docket.ErrUnexported) {
		fmt.Fprintf(r.env.Stderr, "%s: %s\n", prefix, words(err))
		return ExitUnexported
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(r.env.Stderr, "%s: %s\n", prefix, ee.msg)
		}
		return ee.code
	}
	fmt.Fprintf(r.env.Stderr, "%s: %s\n", prefix, words(err))
	if errors.Is(err, docket.ErrConflict) {
		return ExitNo
	}
	return ExitBadInput
}

// paths resolves the index and export locations: flags, then DOCKET_DB and
// DOCKET_EXPORT, then, under the repository root (found by walking up from
// the working directory to a directory holding .git), the export that
// .claimslint.yml's tracker.export names when its tracker.format is docket
// (so docket and claimslint read one file, D57), else the defaults.
//
// Inside a repository every path, wherever it was given, lies beneath the
// root and is reached through no symbolic link and no .git directory
// (D67): one that is not is refused, naming the setting, before anything
// is opened. Outside any repository --db and --export (or the variables)
// are both needed, and each file is held to those rules beneath its own
// directory; root is then "".
func (r *runner) paths() (db, export, root string, err error) {
	dbSet, exSet := r.setting("--db", "DOCKET_DB", r.o.db), r.setting("--export", "DOCKET_EXPORT", r.o.export)
	wd, err := r.env.Getwd()
	if err != nil {
		return "", "", "", fmt.Errorf("working directory: %w", err)
	}
	root, err = findRoot(wd)
	if err != nil {
		if dbSet.path == "" || exSet.path == "" {
			return "", "", "", err
		}
		return abs(wd, dbSet.path), abs(wd, exSet.path), "", nil
	}
	if dbSet.path == "" {
		dbSet = place{filepath.Join(root, DefaultDB), "the default index " + DefaultDB}
	}
	if exSet.path == "" {
		cfg, err := r.config(root)
		if err != nil {
			return "", "", "", err
		}
		exSet = place{filepath.Join(root, DefaultExport), "the default export " + DefaultExport}
		if cfg.Tracker.Format == trackerformat.Docket && cfg.Tracker.Export != "" {
			exSet = place{filepath.Join(root, filepath.FromSlash(cfg.Tracker.Export)), "tracker.export in " + config.FileName}
		}
	}
	for _, p := range []*place{&dbSet, &exSet} {
		p.path = abs(wd, p.path)
		if err := beneath(root, *p); err != nil {
			return "", "", "", err
		}
	}
	return dbSet.path, exSet.path, root, nil
}

// place is a path and the setting that gave it, for messages.
type place struct{ path, setting string }

// setting returns the flag's value, else the variable's, with its name.
func (r *runner) setting(flagName, env, flagValue string) place {
	if flagValue != "" {
		return place{flagValue, flagName}
	}
	if v := r.env.Getenv(env); v != "" {
		return place{v, env}
	}
	return place{}
}

func abs(wd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(wd, p)
}

// beneath refuses p unless it lies beneath root, reached through no
// symbolic link and no .git directory, as a regular file or not yet
// there (D67), naming the setting that gave it.
func beneath(root string, p place) error {
	rel, err := filepath.Rel(root, p.path)
	if err != nil || !filepath.IsLocal(rel) {
		return &exitError{ExitBadInput, fmt.Sprintf("%s: %s is outside the repository %s; docket keeps its files beneath the repository root (D67): give a path inside it, or run docket outside any repository with both --db and --export", p.setting, p.path, root)}
	}
	files, err := docket.NewFiles(root)
	if err == nil {
		err = files.Check(p.path)
	}
	if err != nil {
		return &exitError{ExitBadInput, fmt.Sprintf("%s: %v (D67)", p.setting, err)}
	}
	return nil
}

// config loads the repository's .claimslint.yml once; a file claimslint
// would refuse stops docket too, with the same message.
func (r *runner) config(root string) (config.Config, error) {
	if r.cfg != nil {
		return *r.cfg, nil
	}
	cfg, err := config.Load(root)
	if err != nil {
		return cfg, &exitError{ExitBadInput, fmt.Sprintf("%v (docket reads %s and tracker.export there; fix it, or run claimslint check to see the same error)", err, docket.WorkflowKey)}
	}
	r.cfg = &cfg
	return cfg, nil
}

// findRoot is the git work tree above dir (repo.FindUp with .git alone,
// D103): docket keeps its index beneath it.
func findRoot(dir string) (string, error) {
	if d, ok := repo.FindUp(dir, ".git"); ok {
		return d, nil
	}
	return "", &exitError{ExitBadInput, fmt.Sprintf("no .git above %s: run docket inside a git repository, or give --db and --export (or DOCKET_DB and DOCKET_EXPORT)", dir)}
}

func (r *runner) now() time.Time {
	if v := r.env.Getenv("DOCKET_NOW"); v != "" {
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t
		}
	}
	return time.Now()
}

// open opens the store; prefix is only set by init.
func (r *runner) open(ctx context.Context, prefix string) (*docket.Service, error) {
	b, opts, err := r.options(prefix)
	if err != nil {
		return nil, err
	}
	s, err := docket.Open(ctx, b, opts)
	if err != nil {
		return nil, err
	}
	r.store = s
	return s, nil
}

// options resolves the backend and the service's options: the SQLite
// index, with an in-memory one to serve a read whose sync cannot write
// (dk-x2p) or whose index is committed to git (D67): the one place a
// backend is chosen.
func (r *runner) options(prefix string) (sqlite.Backend, docket.Options, error) {
	db, export, root, err := r.paths()
	if err != nil {
		return sqlite.Backend{}, docket.Options{}, err
	}
	w, err := r.workflow(root)
	if err != nil {
		return sqlite.Backend{}, docket.Options{}, err
	}
	warn := func(msg string) { fmt.Fprintf(r.env.Stderr, "docket: note: %s\n", msg) }
	b := sqlite.Backend{DB: db}
	opts := docket.Options{Export: export, Prefix: prefix, Now: r.now, Warn: warn, Hints: hints, Workflow: w,
		Root: root, Fallback: func() docket.Index { return memindex.New() }}
	if tracked := committedIndex(root, b); len(tracked) > 0 {
		opts.Distrust = distrust(tracked)
		if !r.warned {
			r.warned = true
			fmt.Fprintf(r.env.Stderr, "docket: warning: %s\n", opts.Distrust)
		}
	}
	return b, opts, nil
}

// workflow reads the status mapping from the repository's .claimslint.yml
// (tracker.workflow, D57), the file claimslint reads it from: root is the
// repository root, or "" when --db and --export were both given, in which
// case the root above the working directory is used if there is one. No
// repository or no file means docket's default workflow.
func (r *runner) workflow(root string) (docket.Workflow, error) {
	if root == "" {
		wd, err := r.env.Getwd()
		if err != nil {
			return docket.DefaultWorkflow, nil
		}
		if root, err = findRoot(wd); err != nil {
			return docket.DefaultWorkflow, nil
		}
	}
	cfg, err := r.config(root)
	if err != nil {
		return nil, err
	}
	return cfg.Tracker.Classes, nil
}

func (r *runner) author() string {
	for _, a := range []string{r.o.author, r.env.Getenv("DOCKET_AUTHOR"), r.env.Getenv("USER")} {
		if strings.TrimSpace(a) != "" {
			return a
		}
	}
	return "unknown"
}

func needArgs(args []string, n int, usage string) error {
	if len(args) != n {
		return &exitError{ExitBadInput, fmt.Sprintf("want %d argument(s), got %d\nusage: docket %s", n, len(args), usage)}
	}
	return nil
}

// describeBuild is what docket version prints after the name: the module
// version and the commit, and where the commit was read.
func describeBuild() string { return buildinfo.Describe() }
