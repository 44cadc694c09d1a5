// Package clikit is the one command-line stack of claimslint and docket
// (D77): the only package that imports urfave/cli (D12), so both tools
// share one help style, one --version, one did-you-mean, one shell
// completion and one way of turning an error into an exit code.
//
// The urfave types the commands are written with are aliased here, so a
// command package names clikit, never urfave.
package clikit

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
)

// The urfave types a command package builds its commands from.
type (
	App             = cli.App
	Command         = cli.Command
	Context         = cli.Context
	Flag            = cli.Flag
	BoolFlag        = cli.BoolFlag
	StringFlag      = cli.StringFlag
	IntFlag         = cli.IntFlag
	Int64Flag       = cli.Int64Flag
	DurationFlag    = cli.DurationFlag
	StringSliceFlag = cli.StringSliceFlag
)

// Spec is what a tool tells New about itself.
type Spec struct {
	Name, Usage string
	// Description follows the usage in the tool's help (the exit codes,
	// say).
	Description string
	// Version returns what both --version and the version command
	// print after Name; it is called only then (reading the build's
	// commit may run git).
	Version        func() string
	Stdout, Stderr io.Writer
	Flags          []Flag
	Commands       []*Command
	// UsageError wraps a usage error (an unknown command or flag, a
	// flag's bad value) into the tool's error that exits 2: cmd is the
	// command it was given to ("dep add"), "" for the tool itself, and
	// err's message carries any did-you-mean. err is nil when the tool
	// was run with no command and its help was shown.
	UsageError func(cmd string, err error) error
	// Action runs for the tool with no command; nil shows the help and
	// returns UsageError of nothing.
	Action func(*Context) error
}

// errVersion stops a run after --version printed the version.
var errVersion = errors.New("version printed")

// New builds the tool's app: its commands plus a version command, a
// --version flag, bash completion, did-you-mean for commands and flags,
// and usage errors passed through s.UsageError. The app never exits the
// process: Run returns the error and the tool maps it to its exit code.
func New(s Spec) *App {
	version := func() { fmt.Fprintln(s.Stdout, s.Name, s.Version()) }
	cmds := append(append([]*Command{}, s.Commands...), &Command{
		Name:  "version",
		Usage: "print the module version and commit this binary was built from (as --version does)",
		Action: func(c *Context) error {
			if c.NArg() > 0 {
				return s.UsageError("version", fmt.Errorf("version takes no arguments (got %q)", c.Args().First()))
			}
			version()
			return nil
		},
	})
	var walk func(string, []*Command)
	walk = func(parent string, cs []*Command) {
		for _, c := range cs {
			full := strings.TrimSpace(parent + " " + c.Name)
			if c.OnUsageError == nil {
				c.OnUsageError = func(ctx *Context, err error, _ bool) error {
					return s.UsageError(full, withFlagSuggestion(err, c.Flags))
				}
			}
			walk(full, c.Subcommands)
		}
	}
	walk("", cmds)
	flags := append(append([]Flag{}, s.Flags...), &BoolFlag{Name: "version", Usage: "print the version (the same as the version command)"})
	app := &App{
		Name:                      s.Name,
		Usage:                     s.Usage,
		Description:               s.Description,
		Writer:                    s.Stdout,
		ErrWriter:                 s.Stderr,
		HideVersion:               true,
		EnableBashCompletion:      true,
		DisableSliceFlagSeparator: true,
		Flags:                     flags,
		Commands:                  cmds,
		ExitErrHandler:            func(*Context, error) {},
		OnUsageError: func(c *Context, err error, _ bool) error {
			return s.UsageError("", withFlagSuggestion(err, c.App.Flags))
		},
		Before: func(c *Context) error {
			if c.Bool("version") {
				version()
				return errVersion
			}
			return nil
		},
		// help NAME for no command NAME: urfave returns no error, so the
		// error is kept for Run to return (exit 2, as for any other
		// unknown command).
		CommandNotFound: func(c *Context, name string) {
			c.App.Metadata[notFoundKey] = s.UsageError("", errors.New(UnknownCommand(s.Name, name, c.App.Commands)))
		},
		Metadata: map[string]any{},
	}
	app.Action = func(c *Context) error {
		if c.NArg() > 0 {
			return s.UsageError("", errors.New(UnknownCommand(s.Name, c.Args().First(), app.Commands)))
		}
		if s.Action != nil {
			return s.Action(c)
		}
		_ = cli.ShowAppHelp(c)
		return s.UsageError("", nil)
	}
	return app
}

// Run runs app with args (args[0] is the program name), flags given after
// a command's positional arguments moved ahead of them. A --version that
// printed the version is no error.
func Run(app *App, args []string) error {
	// urfave's setup and parsing write to values it keeps in package
	// variables (its help command, its help flag's default), so two apps
	// parsing at once in one process race. Parsing is serialised; the
	// lock is released as a command's action starts, so a long-running
	// command (docket mcp) holds nobody up.
	parseMu.Lock()
	var once sync.Once
	unlock := func() { once.Do(parseMu.Unlock) }
	defer unlock()
	if app.Metadata == nil {
		app.Metadata = map[string]any{}
	}
	app.Metadata[unlockKey] = unlock
	wrapped, _ := app.Metadata[wrappedKey].(map[*Command]bool)
	if wrapped == nil {
		wrapped = map[*Command]bool{}
		app.Metadata[wrappedKey] = wrapped
		app.Action = released(app.Action)
	}
	releaseActions(app.Commands, wrapped)
	err := app.Run(FlagsFirst(app, args))
	if errors.Is(err, errVersion) {
		return nil
	}
	if nf, ok := app.Metadata[notFoundKey].(error); ok && err == nil {
		return nf
	}
	return err
}

var parseMu sync.Mutex

// The app's Metadata keys of the parse lock: this run's unlock, and the
// commands whose actions release it.
const (
	unlockKey  = "clikit.unlock"
	wrappedKey = "clikit.wrapped"
)

// released wraps an action so that it releases the parse lock of the run
// it is part of first.
func released(a cli.ActionFunc) cli.ActionFunc {
	if a == nil {
		return nil
	}
	return func(c *Context) error {
		if u, ok := c.App.Metadata[unlockKey].(func()); ok {
			u()
		}
		return a(c)
	}
}

// releaseActions wraps, once each, the actions of cmds and of their
// subcommands; urfave's own help command, a package variable of its, is
// left alone (its action only prints).
func releaseActions(cmds []*Command, wrapped map[*Command]bool) {
	for _, c := range cmds {
		if wrapped[c] || c.Name == "help" {
			continue
		}
		wrapped[c] = true
		c.Action = released(c.Action)
		releaseActions(c.Subcommands, wrapped)
	}
}

// notFoundKey holds, in the app's Metadata, the error of a help NAME that
// named no command.
const notFoundKey = "clikit.notFound"

// UnknownCommand words an unknown command, with the nearest command's
// name when one is close enough to be a typo.
func UnknownCommand(tool, name string, cmds []*Command) string {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if s := Nearest(name, names); s != "" {
		msg += fmt.Sprintf(": did you mean %q?", s)
	}
	return msg + " (run " + tool + " help)"
}

// withFlagSuggestion adds the nearest of flags to the flag package's
// "flag provided but not defined: -x".
func withFlagSuggestion(err error, flags []Flag) error {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	if !strings.HasPrefix(msg, undefined) {
		return err
	}
	given := strings.TrimLeft(strings.TrimPrefix(msg, undefined), "-")
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	if s := Nearest(given, names); s != "" {
		return fmt.Errorf("%w; did you mean %s?", err, dashed(s))
	}
	return err
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// Nearest returns the candidate closest to given by edit distance when it
// is close enough to be a typo (at most a third of the longer name, and
// at least one edit allowed), else "".
func Nearest(given string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		limit := max(1, max(len(given), len(c))/3)
		// The distance is at least the difference in length: a long
		// argument is never compared, so its cost stays that of a name.
		if abs(len(given)-len(c)) > limit {
			continue
		}
		d := distance(given, c)
		if d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// distance is the edit distance of a and b by bytes, a swap of two
// neighbours counting as one edit (optimal string alignment), so "lsit"
// is one edit from "list".
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// FlagsFirst moves a command's flags ahead of its positional arguments, so
// "docket create TITLE -p 1" parses as "docket create -p 1 TITLE": the
// flag package stops at the first positional argument. A flag's value is
// the next argument unless the flag is a switch or carries =value; "--"
// ends the flags.
func FlagsFirst(app *App, args []string) []string {
	// Flags of the tool itself may come before the command.
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" && args[i] != "--" {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		i++
		if !hasValue && !isBool(app.Flags, name) && i < len(args) {
			i++
		}
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args
	}
	head := args[:i+1]
	rest := args[i+1:]
	for len(cmd.Subcommands) > 0 && len(rest) > 0 {
		sub := cmd.Command(rest[0])
		if sub == nil {
			break
		}
		head, rest, cmd = args[:len(head)+1], rest[1:], sub
	}
	var flags, pos []string
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case a == "--":
			pos = append(pos, rest[k:]...)
			k = len(rest)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && !isBool(cmd.Flags, name) && k+1 < len(rest) {
				k++
				flags = append(flags, rest[k])
			}
		default:
			pos = append(pos, a)
		}
	}
	return append(append(append([]string{}, head...), flags...), pos...)
}

// isBool reports whether name is a switch among flags (help always is).
func isBool(flags []Flag, name string) bool {
	if name == "help" || name == "h" || name == "version" || name == "generate-bash-completion" {
		return true
	}
	for _, f := range flags {
		if _, ok := f.(*BoolFlag); ok {
			for _, n := range f.Names() {
				if n == name {
					return true
				}
			}
		}
	}
	return false
}
