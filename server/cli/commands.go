package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"log/slog"
	"maps"

	"github.com/claimslint/claimslint/internal/clikit"
	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/format"
	"github.com/claimslint/claimslint/internal/trackerformat"
	"github.com/claimslint/claimslint/server/docket"
	"github.com/claimslint/claimslint/server/mcp"
	"github.com/claimslint/claimslint/server/mcp/stdio"
	"github.com/claimslint/claimslint/server/mcp/streamhttp"
	"github.com/claimslint/claimslint/server/mcp/wire"
)

// commandNamed returns the command called name.
func commandNamed(name string) (command, bool) {
	all := commands()
	if i := slices.IndexFunc(all, func(c command) bool { return c.name == name }); i >= 0 {
		return all[i], true
	}
	return command{}, false
}

// usage is the argument synopsis of the command called name.
func usage(name string) string {
	c, _ := commandNamed(name)
	return c.args
}

// commands lists docket's commands in the order help shows them: one
// value each, so the list is the order (issue 33).
func commands() []command {
	jsonFlag := func(o *opts) clikit.Flag {
		return &clikit.BoolFlag{Name: "json", Destination: &o.json, Usage: "print records as JSON"}
	}
	jsonOnly := func(o *opts) []clikit.Flag { return []clikit.Flag{jsonFlag(o)} }
	return []command{
		{
			name: "init", args: "[--prefix dk [--write-config]]",
			help: "Create the index (.docket/, ignored by git) and the export (.claimslint.yml's tracker.export, by default .knowledge/tracker/issues.jsonl).\nOn a clone whose export exists, the index is built from it.\nWhen .claimslint.yml's tracker.prefixes does not list the prefix, init says so on stderr and shows the edit; --write-config makes it.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					&clikit.StringFlag{Name: "prefix", Destination: &o.prefix, Usage: "id `prefix`, like dk (default: the export's, or dk)"},
					&clikit.BoolFlag{Name: "write-config", Destination: &o.writeConfig, Usage: "add the prefix to tracker.prefixes in .claimslint.yml when it is not listed there"},
				}
			},
			run: runInit,
		},
		{
			name: "create", args: "TITLE|--title TITLE [-d TEXT] [-p N] [-t TYPE] [-l LABEL]... [--decision D12]...",
			help: "Create an issue and print its id.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					jsonFlag(o),
					&clikit.StringFlag{Name: "title", Destination: &o.title, Usage: "the title, instead of the TITLE argument"},
					&clikit.StringFlag{Name: "d", Aliases: []string{"description"}, Destination: &o.desc, Usage: "description"},
					&clikit.IntFlag{Name: "p", Aliases: []string{"priority"}, Destination: &o.priority, Value: docket.DefaultPriority, Usage: "priority, 0 (most urgent) to 4"},
					&clikit.StringFlag{Name: "t", Aliases: []string{"type"}, Destination: &o.typ, Value: string(docket.TypeTask), Usage: "type: bug, feature, task, chore, decision, residual"},
					&clikit.StringSliceFlag{Name: "l", Aliases: []string{"label"}, Usage: "label (repeatable)"},
					&clikit.StringSliceFlag{Name: "decision", Usage: "register decision the issue carries, like D12 (repeatable)"},
				}
			},
			run: runCreate,
		},
		{
			name: "list", args: "[--status S[,S]] [--label L] [--decision D] [--type T] [--all] [--limit N] [--cursor C] [--sort S] [--fields F,F]",
			help: "List issues, most urgent first, 50 at a time. Closed issues are left out unless --all or --status closed.",
			flags: func(o *opts) []clikit.Flag {
				return append(pageFlags(o),
					&clikit.StringFlag{Name: "status", Destination: &o.status, Usage: "only these statuses, comma-separated"},
					&clikit.StringFlag{Name: "label", Destination: &o.label, Usage: "only issues with this label"},
					&clikit.StringFlag{Name: "decision", Destination: &o.decision, Usage: "only issues that carry this decision"},
					&clikit.StringFlag{Name: "type", Destination: &o.typ, Usage: "only this type"},
					&clikit.BoolFlag{Name: "all", Destination: &o.all, Usage: "include closed issues"},
				)
			},
			run: listing(docket.ViewList),
		},
		{
			name: "show", args: "ID", help: "Show one issue.",
			flags: jsonOnly, run: runShow,
		},
		{
			name: "update", args: "ID [--title T] [-d TEXT] [-p N] [-t TYPE] [--status S] [--add-label L] [--remove-label L] [--decision D] [--remove-decision D] [--if-version N]",
			help: "Change fields of an issue. With --if-version it fails (exit 1) when someone else changed the issue first.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					jsonFlag(o),
					&clikit.StringFlag{Name: "title", Destination: &o.title, Usage: "new title"},
					&clikit.StringFlag{Name: "d", Aliases: []string{"description"}, Destination: &o.desc, Usage: "new description"},
					&clikit.IntFlag{Name: "p", Aliases: []string{"priority"}, Destination: &o.priority, Usage: "new priority"},
					&clikit.StringFlag{Name: "t", Aliases: []string{"type"}, Destination: &o.typ, Usage: "new type"},
					&clikit.StringFlag{Name: "status", Destination: &o.status, Usage: "new status: open, in_progress, blocked, deferred"},
					&clikit.StringSliceFlag{Name: "add-label", Usage: "label to add (repeatable)"},
					&clikit.StringSliceFlag{Name: "remove-label", Usage: "label to remove (repeatable)"},
					&clikit.StringSliceFlag{Name: "decision", Usage: "decision to add (repeatable)"},
					&clikit.StringSliceFlag{Name: "remove-decision", Usage: "decision to remove (repeatable)"},
					&clikit.Int64Flag{Name: "if-version", Destination: &o.ifVersion, Usage: "fail unless the issue is at this version"},
				}
			},
			run: runUpdate,
		},
		{
			name: "close", args: "ID --reason TEXT [--if-version N]", help: "Close an issue. The record stays; ids are never deleted.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					jsonFlag(o),
					&clikit.StringFlag{Name: "reason", Destination: &o.reason, Usage: "why it is closed (required)"},
					&clikit.Int64Flag{Name: "if-version", Destination: &o.ifVersion, Usage: "fail unless the issue is at this version"},
				}
			},
			run: runClose,
		},
		{
			name: "reopen", args: "ID [--if-version N]", help: "Reopen a closed issue.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					jsonFlag(o),
					&clikit.Int64Flag{Name: "if-version", Destination: &o.ifVersion, Usage: "fail unless the issue is at this version"},
				}
			},
			run: runReopen,
		},
		{
			name: "comment", args: "ID TEXT [--author NAME]", help: "Add a comment (author: --author, $DOCKET_AUTHOR, $USER).",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					jsonFlag(o),
					&clikit.StringFlag{Name: "author", Destination: &o.author, Usage: "comment author"},
				}
			},
			run: runComment,
		},
		{
			name: "dep", args: "add|remove ...",
			help: "Add or remove a dependency: dep add A blocks B (B waits for A), dep add A parent B (B is A's parent), dep add A related B; dep remove A [TYPE] B.",
			run:  runDep,
			subcommands: []command{{
				name: "dep add", args: "ID blocks|parent|related OTHER",
				help:  "Add a dependency: dep add A blocks B (B waits for A), dep add A parent B (B is A's parent), dep add A related B.",
				flags: jsonOnly, run: runDepAdd,
			}, {
				name: "dep remove", args: "ID [TYPE] OTHER",
				help:  "Remove a dependency of ID on OTHER; TYPE (blocks, parent, related, ...) is needed only when ID has more than one edge to OTHER.",
				flags: jsonOnly, run: runDepRemove,
			}},
		},
		{
			name: "ready", args: "[--limit N] [--cursor C] [--sort S] [--fields F,F]", help: "List open issues that nothing unfinished blocks, directly or through a parent, 50 at a time.",
			flags: pageFlags, run: listing(docket.ViewReady),
		},
		{
			name: "blocked", args: "[--limit N] [--cursor C] [--sort S] [--fields F,F]",
			help:  "List unfinished issues that something unfinished blocks (directly or through a parent), or whose status is a blocked one.",
			flags: pageFlags, run: listing(docket.ViewBlocked),
		},
		{
			name: "search", args: "QUERY [--limit N] [--cursor C] [--sort S] [--fields F,F]",
			help:  "List issues of any status whose title or description contains every word of QUERY (case-insensitive).",
			flags: pageFlags, run: listing(docket.ViewSearch),
		},
		{
			name: "export", args: exportArgs(),
			help: "Rewrite the export from the index; with --check, exit 1 if the file differs from what the index would write.\nWith --format beads, write the records in beads' issues.jsonl shape (to stdout, or -o FILE), every field an import kept included.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					&clikit.BoolFlag{Name: "check", Destination: &o.check, Usage: "compare instead of writing (for CI)"},
					&clikit.StringFlag{Name: "o", Aliases: []string{"output"}, Destination: &o.out, Usage: "write the canonical export to this file, or - for stdout, instead of the export path"},
					&clikit.StringFlag{Name: "format", Destination: &o.format, Value: docket.FormatDocket, Usage: formatHelps(docket.ExportFormats())},
				}
			},
			run: runExport,
		},
		{
			name: "import", args: importArgs(),
			help: "Upsert records from a file. Every bad line is reported (file:line: field: problem) and nothing is applied.\nFields, statuses, types and dependency types docket does not know are kept; what was changed is warned about.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					&clikit.StringFlag{Name: "format", Destination: &o.format, Usage: formatNames(trackerformat.Formats, "") + " (default: detected from the file)"},
					&clikit.BoolFlag{Name: "dry-run", Destination: &o.dryRun, Usage: "print the counts and warnings, change nothing"},
				}
			},
			run: runImport,
		},
		{
			name: "merge", args: "BASE OURS THEIRS",
			help: "Three-way merge of exports keyed by id, as a git merge driver: the result replaces OURS.",
			run:  runMerge,
		},
		{
			name: "mcp", args: "[--http ADDR] [--read-only]",
			help: "Serve the tracker and the register to an MCP client, over stdio or, with --http ADDR, Streamable HTTP.\nOver stdio, JSON-RPC 2.0 one message per line. Logs go to stderr ($DOCKET_LOG=debug|info|warn|error); stdout carries only JSON-RPC.",
			flags: func(o *opts) []clikit.Flag {
				return []clikit.Flag{
					&clikit.IntFlag{Name: "max-in-flight", Destination: &o.mcp.maxInFlight, Value: wire.DefaultMaxInFlight, Usage: "requests handled at once; past it, over stdio, requests wait in a queue of 64 (16 MiB), then no further input is read"},
					&clikit.IntFlag{Name: "max-reply-mib", Destination: &o.mcp.maxReplyMiB, Value: wire.DefaultMaxReply >> 20, Usage: "largest reply in MiB; a larger one is refused with an error"},
					&clikit.BoolFlag{Name: "read-only", Destination: &o.mcp.readOnly, Usage: "serve only the tools that change nothing; a call to one that writes is refused (resources and prompts are served)"},
					&clikit.StringFlag{Name: "http", Destination: &o.mcp.http, Usage: "serve Streamable HTTP at `ADDR` (host:port; :port binds 127.0.0.1) instead of stdio"},
					&clikit.StringFlag{Name: "token-file", Destination: &o.mcp.tokenFile, Usage: "with --http: require Authorization: Bearer and the token on this `file`'s first line"},
					&clikit.StringSliceFlag{Name: "allow-origin", Usage: "with --http: accept this Origin besides local pages (repeatable)"},
					&clikit.DurationFlag{Name: "body-timeout", Destination: &o.mcp.bodyTimeout, Value: streamhttp.DefaultBodyTimeout, Usage: "with --http: a POST body must arrive within this `duration` of its headers, or it is answered 408"},
					&clikit.IntFlag{Name: "max-sessions", Destination: &o.mcp.maxSessions, Value: streamhttp.DefaultMaxSessions, Usage: "with --http: 2025-11-25 sessions held at once; an initialize past it is answered 503"},
					&clikit.DurationFlag{Name: "session-idle", Destination: &o.mcp.sessionIdle, Value: streamhttp.DefaultSessionIdle, Usage: "with --http: a session with no request for this `duration` is closed"},
					&clikit.DurationFlag{Name: "write-timeout", Destination: &o.mcp.writeTimeout, Value: streamhttp.DefaultWriteTimeout, Usage: "with --http: a write of a reply that the client does not read within this `duration` closes its connection"},
					&clikit.IntFlag{Name: "max-conns", Destination: &o.mcp.maxConns, Value: streamhttp.DefaultMaxConns, Usage: "with --http: connections held open at once; past it the longest idle one that did not present the token is closed"},
					&clikit.IntFlag{Name: "max-conns-per-addr", Destination: &o.mcp.maxConnsPerAddr, Value: streamhttp.DefaultMaxConnsPerAddr, Usage: "with --http: connections held open at once from one client address"},
				}
			},
			run: runMCP,
		},
	}
}

func (r *runner) print(i docket.Issue) error {
	if r.o.json {
		line, err := docket.MarshalLine(i)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(r.env.Stdout, "%s\n", line)
		return err
	}
	return writeShow(r.env.Stdout, i, nil, nil)
}

func runInit(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 0, "init [--prefix dk [--write-config]]"); err != nil {
		return err
	}
	if r.o.writeConfig && r.o.prefix == "" {
		return &exitError{ExitBadInput, "--write-config needs --prefix: name the prefix to add to tracker.prefixes in " + config.FileName}
	}
	db, export, root, err := r.paths()
	if err != nil {
		return err
	}
	files, err := docket.NewFiles(root)
	if err != nil {
		return err
	}
	prefix := r.o.prefix
	if _, statErr := files.Stat(export); prefix == "" && statErr != nil {
		prefix = "dk"
	}
	// The edit --write-config makes is planned before anything is
	// written, so a file docket cannot edit leaves the repository as it
	// was (D74).
	var edit *config.PrefixEdit
	if r.o.writeConfig {
		if edit, err = r.prefixEdit(root, r.o.prefix); err != nil {
			return &exitError{ExitBadInput, words(err)}
		}
	}
	s, err := r.open(ctx, prefix)
	if err != nil {
		return err
	}
	if err := s.ReadOnly(); err != nil {
		return err // init makes the index: refused beside a committed one (D67)
	}
	// The index directory ignores itself, so init never edits the
	// repository's own .gitignore; it is written beneath the root through
	// no link, as every file of docket's is (D67).
	if filepath.Base(filepath.Dir(db)) == ".docket" {
		if err := files.WriteFile(filepath.Join(filepath.Dir(db), ".gitignore"), []byte("*\n")); err != nil {
			return fmt.Errorf("write .docket/.gitignore: %w", err)
		}
	}
	// The count is the tally's (D58), not a decode of every record (D93).
	all, err := s.Listing(ctx, docket.ViewList, docket.ListParams{All: true, Limit: 1})
	if err != nil {
		return err
	}
	fmt.Fprintf(r.env.Stdout, "docket tracker %q: %d issues; index %s, export %s\n", s.Prefix(), all.Total, db, export)
	if err := r.agreePrefix(root, s.Prefix(), edit); err != nil {
		return err
	}
	return installMergeDriver(r.env.Stdout, root, export)
}

// prefixEdit plans the edit of root's .claimslint.yml that adds prefix to
// tracker.prefixes (D74): nil when there is nothing to add (no file, a
// tracker format other than docket's, the prefix listed), an error when
// the file cannot be edited line by line or there is no repository.
func (r *runner) prefixEdit(root, prefix string) (*config.PrefixEdit, error) {
	if root == "" {
		return nil, fmt.Errorf("init --write-config: no repository (--db and --export were given), so no %s to edit", config.FileName)
	}
	cfg, err := r.config(root)
	if err != nil {
		return nil, err
	}
	if cfg.Tracker.Format != trackerformat.Docket || slices.Contains(cfg.Tracker.Prefixes, prefix) {
		return nil, nil
	}
	data, err := config.Read(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	e, err := config.AddPrefix(data, prefix)
	if err != nil {
		return nil, fmt.Errorf("cannot add %s to tracker.prefixes in %s (%v): add it by hand, as tracker.prefixes: %s; nothing was changed", prefix, config.FileName, err, flowList(append(slices.Clone(cfg.Tracker.Prefixes), prefix)))
	}
	return &e, nil
}

// agreePrefix makes claimslint's tracker.prefixes and docket's prefix
// agree (D74): it writes the edit --write-config planned, or, when the
// repository's .claimslint.yml does not list prefix, says so on stderr
// with the edit that adds it. claimslint check learns a prefix from the
// ids of the export too, but a tracker with no issue yet has none to
// learn from.
func (r *runner) agreePrefix(root, prefix string, edit *config.PrefixEdit) error {
	if edit != nil {
		if err := config.Write(root, edit.Out); err != nil {
			return &exitError{ExitBadInput, fmt.Sprintf("the tracker is ready, but %v; add %s to tracker.prefixes by hand", err, prefix)}
		}
		fmt.Fprintf(r.env.Stdout, "added %s to tracker.prefixes in %s (commit it)\n", prefix, config.FileName)
		return nil
	}
	if root == "" || r.o.writeConfig {
		return nil
	}
	cfg, err := r.config(root)
	if err != nil || cfg.Tracker.Format != trackerformat.Docket || slices.Contains(cfg.Tracker.Prefixes, prefix) {
		return nil // a bad file stopped docket before here
	}
	data, err := config.Read(root)
	if err != nil {
		return nil // no .claimslint.yml: claimslint is not configured here
	}
	note := func(msg string, args ...any) {
		fmt.Fprintf(r.env.Stderr, "docket: note: %s\n", format.Escape(fmt.Sprintf(msg, args...)))
	}
	note("%s names the tracker prefixes %s, not %s: claimslint check knows %s ids only once the export holds one", config.FileName, flowList(cfg.Tracker.Prefixes), prefix, prefix)
	e, err := config.AddPrefix(data, prefix)
	if err != nil {
		note("add %s to tracker.prefixes in %s by hand (%v)", prefix, config.FileName, err)
		return nil
	}
	note("docket init --prefix %s --write-config adds it; the edit:", prefix)
	switch {
	case len(e.Old) > 0:
		fmt.Fprintf(r.env.Stderr, "  %s:%d\n", config.FileName, e.Line)
	case e.Append:
		fmt.Fprintf(r.env.Stderr, "  %s, at the end\n", config.FileName)
	default:
		fmt.Fprintf(r.env.Stderr, "  %s, after line %d\n", config.FileName, e.Line)
	}
	for _, l := range e.Old {
		fmt.Fprintf(r.env.Stderr, "  -%s\n", format.Escape(l))
	}
	for _, l := range e.New {
		fmt.Fprintf(r.env.Stderr, "  +%s\n", format.Escape(l))
	}
	return nil
}

// flowList writes prefixes as YAML's [a, b].
func flowList(prefixes []string) string { return "[" + strings.Join(prefixes, ", ") + "]" }

// mergeDriver is the git merge driver docket init configures when the
// repository has none: two branches that both change issues merge by id
// (D18) instead of leaving conflict markers no command can read.
const mergeDriver = "docket merge %O %A %B"

// installMergeDriver sets merge.docket.driver in the repository's git
// config unless one is set, and adds the export's merge=docket line to
// .gitattributes unless it is there. Outside a repository (--db and
// --export given) there is nothing to configure.
func installMergeDriver(w io.Writer, root, export string) error {
	if root == "" {
		return nil
	}
	rel, err := filepath.Rel(root, export)
	if err != nil || !filepath.IsLocal(rel) {
		fmt.Fprintf(w, "merge driver not installed: the export %s is outside the repository %s\n", export, root)
		return nil
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	if cur, _ := git("config", "--get", "merge.docket.driver"); cur == "" {
		_, err := git("config", "merge.docket.name", "docket export merge")
		if err == nil {
			_, err = git("config", "merge.docket.driver", mergeDriver)
		}
		if err != nil {
			// The tracker works without it; say how to finish by hand.
			fmt.Fprintf(w, "merge driver not configured (git config: %v): run git config merge.docket.driver %q\n", err, mergeDriver)
		} else {
			fmt.Fprintf(w, "git config merge.docket.driver %q\n", mergeDriver)
		}
	}
	line := filepath.ToSlash(rel) + " merge=docket"
	ga := filepath.Join(root, ".gitattributes")
	files, err := docket.NewFiles(root)
	if err != nil {
		return err
	}
	have, err := files.ReadFile(ga)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read .gitattributes: %w", err)
	}
	for _, l := range strings.Split(string(have), "\n") {
		if strings.TrimSpace(l) == line {
			return nil
		}
	}
	if len(have) > 0 && !bytes.HasSuffix(have, []byte("\n")) {
		have = append(have, '\n')
	}
	have = append(have, "# The tracker export merges by id: docket merge (git config merge.docket.driver).\n"+line+"\n"...)
	if err := files.WriteFile(ga, have); err != nil {
		return fmt.Errorf("write .gitattributes: %w", err)
	}
	fmt.Fprintf(w, "added %q to .gitattributes (commit it)\n", line)
	return nil
}

func runCreate(ctx context.Context, r *runner, c *clikit.Context, args []string) error {
	if c.IsSet("title") {
		args = append(args, r.o.title)
	}
	if len(args) != 1 {
		return &exitError{ExitBadInput, fmt.Sprintf("want one TITLE (quote it), as an argument or --title, got %d\nusage: docket create %s", len(args), usage("create"))}
	}
	typ, err := docket.ParseType(r.o.typ)
	if err != nil {
		return err
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	i, err := s.Create(ctx, docket.NewIssue{
		Title: args[0], Description: r.o.desc, Type: typ, Priority: r.o.priority,
		Labels: r.o.labels, Decisions: r.o.decisions,
	})
	if !committed(err) {
		return err
	}
	if r.o.json {
		return errors.Join(err, r.print(i))
	}
	_, perr := fmt.Fprintf(r.env.Stdout, "created %s: %s\n", i.ID, i.Title)
	return errors.Join(err, perr)
}

// committed reports whether a write's result is stored: no error, or
// ErrUnexported (stored in the index, the export behind). Such a result is
// printed as any other, and the command then exits 3.
func committed(err error) bool {
	return err == nil || errors.Is(err, docket.ErrUnexported)
}

func pageFlags(o *opts) []clikit.Flag {
	return []clikit.Flag{
		&clikit.BoolFlag{Name: "json", Destination: &o.json, Usage: "print records as JSON"},
		&clikit.IntFlag{Name: "limit", Destination: &o.limit, Value: docket.DefaultLimit, Usage: "at most N issues; 0 for all"},
		&clikit.StringFlag{Name: "cursor", Destination: &o.cursor, Usage: "resume after the page that printed this cursor"},
		&clikit.StringFlag{Name: "sort", Destination: &o.sort, Usage: "priority (default: most urgent, then oldest), created, updated (newest first) or id"},
		&clikit.StringFlag{Name: "fields", Destination: &o.fields, Usage: "comma-separated record keys to print (default: id, priority, status, type, title)"},
	}
}

// listing runs list, ready, blocked or search: one page from index
// columns, full records only when --json or --fields ask for them.
func listing(view docket.View) func(ctx context.Context, r *runner, c *clikit.Context, args []string) error {
	return func(ctx context.Context, r *runner, c *clikit.Context, args []string) error {
		p := docket.ListParams{All: r.o.all, Type: r.o.typ, Label: r.o.label, Decision: r.o.decision, Sort: r.o.sort, Limit: r.o.limit, Cursor: r.o.cursor}
		if view == docket.ViewSearch {
			if len(args) == 0 {
				return &exitError{ExitBadInput, "want a QUERY\nusage: docket search QUERY [--limit N]"}
			}
			p.Text = strings.Join(args, " ")
		} else if err := needArgs(args, 0, c.Command.Name+" "+usage(c.Command.Name)); err != nil {
			return err
		}
		if r.o.status != "" {
			p.Statuses = strings.Split(r.o.status, ",")
		}
		if r.o.fields != "" {
			p.Fields = strings.Split(r.o.fields, ",")
		}
		if _, err := p.Query(); err != nil {
			return flagError(err)
		}
		s, err := r.open(ctx, "")
		if err != nil {
			return err
		}
		page, err := s.Listing(ctx, view, p)
		if err != nil {
			return flagError(err)
		}
		// A status the workflow does not map is reported on every
		// listing, not mapped in silence (D57).
		if u, err := s.Unmapped(ctx); err != nil {
			return err
		} else if len(u) > 0 {
			fmt.Fprintf(r.env.Stderr, "docket: note: %s\n", docket.UnmappedNote(u))
		}
		if r.o.json && len(p.Fields) == 0 {
			is, err := s.Records(ctx, page.Rows)
			if err != nil {
				return err
			}
			err = writeJSONArray(r.env.Stdout, is)
			r.more(page, r.env.Stderr)
			return err
		}
		if len(p.Fields) > 0 {
			var is []docket.Issue
			if p.NeedsRecords() {
				if is, err = s.Records(ctx, page.Rows); err != nil {
					return err
				}
			}
			err = writeFields(r.env.Stdout, p.Fields, page.Rows, is, r.o.json)
		} else {
			err = writeRows(r.env.Stdout, page.Rows)
		}
		w := r.env.Stdout
		if r.o.json {
			w = r.env.Stderr
		}
		r.more(page, w)
		return err
	}
}

func (r *runner) more(p docket.Page, w io.Writer) {
	if l := docket.MoreLine(p, "--cursor", "--limit"); l != "" {
		fmt.Fprintln(w, l)
	}
}

// flagError words an argument error with the flag's name.
func flagError(err error) error {
	var ae *docket.ArgError
	if !errors.As(err, &ae) {
		return err
	}
	var msgs []string
	for _, e := range unjoin(err) {
		if errors.As(e, &ae) {
			flag := "--" + ae.Arg
			if ae.Arg == "query" {
				flag = "QUERY"
			}
			msg := docket.Say(ae.Err, hints)
			msgs = append(msgs, flag+" "+strings.TrimPrefix(msg, ae.Arg+" "))
		} else {
			msgs = append(msgs, words(e))
		}
	}
	return fmt.Errorf("%w: %s", docket.ErrInvalid, strings.Join(msgs, "; "))
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func runShow(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 1, "show ID"); err != nil {
		return err
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	i, err := s.Get(ctx, args[0])
	if err != nil {
		return err
	}
	if r.o.json {
		return r.print(i)
	}
	blockers, blocked, err := s.Blocking(ctx, i.ID)
	if err != nil {
		return err
	}
	return writeShow(r.env.Stdout, i, blockers, blocked)
}

func runUpdate(ctx context.Context, r *runner, c *clikit.Context, args []string) error {
	if err := needArgs(args, 1, "update ID [flags]"); err != nil {
		return err
	}
	set := map[string]bool{}
	for _, n := range []string{"title", "d", "p", "t", "status", "add-label", "remove-label", "decision", "remove-decision"} {
		set[n] = c.IsSet(n)
	}
	var p docket.Patch
	if set["title"] {
		if err := docket.CheckTitle(r.o.title); err != nil {
			return err
		}
		p.Title = &r.o.title
	}
	if set["d"] {
		p.Description = &r.o.desc
	}
	if set["p"] {
		if err := docket.CheckPriority(r.o.priority); err != nil {
			return err
		}
		p.Priority = &r.o.priority
	}
	if set["t"] {
		t, err := docket.ParseType(r.o.typ)
		if err != nil {
			return err
		}
		p.Type = &t
	}
	if set["status"] {
		st, err := docket.ParseSettable(r.o.status)
		if err != nil {
			return err
		}
		p.Status = &st
	}
	for _, l := range append(append([]string{}, r.o.labels...), r.o.removeLabels...) {
		if err := docket.CheckLabel(l); err != nil {
			return err
		}
	}
	for _, d := range append(append([]string{}, r.o.decisions...), r.o.removeDecisions...) {
		if err := docket.CheckDecision(d); err != nil {
			return err
		}
	}
	p.AddLabels, p.RemoveLabels = r.o.labels, r.o.removeLabels
	p.AddDecisions, p.RemoveDecisions = r.o.decisions, r.o.removeDecisions
	p.IfVersion = r.o.ifVersion
	if !slices.Contains(slices.Collect(maps.Values(set)), true) {
		return &exitError{ExitBadInput, "nothing to change: give at least one of --title, -d, -p, -t, --status, --add-label, --remove-label, --decision, --remove-decision"}
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	i, err := s.Update(ctx, args[0], p)
	return r.done("updated", i, err)
}

// done reports a write: the record as JSON, or one line naming the new
// version so the next --if-version has it at hand. werr is the write's
// error: nothing is printed for a write that did not commit, and
// ErrUnexported is passed on after the record.
func (r *runner) done(verb string, i docket.Issue, werr error) error {
	if !committed(werr) {
		return werr
	}
	if r.o.json {
		return errors.Join(werr, r.print(i))
	}
	_, err := fmt.Fprintf(r.env.Stdout, "%s %s (version %d)\n", verb, i.ID, i.Version)
	return errors.Join(werr, err)
}

func runClose(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 1, "close ID --reason TEXT"); err != nil {
		return err
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	i, err := s.CloseIssue(ctx, args[0], r.o.reason, r.o.ifVersion)
	return r.done("closed", i, err)
}

func runReopen(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 1, "reopen ID"); err != nil {
		return err
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	i, err := s.Reopen(ctx, args[0], r.o.ifVersion)
	return r.done("reopened", i, err)
}

func runComment(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 2, "comment ID TEXT"); err != nil {
		return err
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	i, err := s.Comment(ctx, args[0], r.author(), args[1])
	return r.done("commented on", i, err)
}

// depUsage is dep's usage, for a dep command given the wrong arguments.
const depUsage = "usage: docket dep add ID blocks|parent|related OTHER\n       docket dep remove ID [TYPE] OTHER"

func runDep(_ context.Context, _ *runner, _ *clikit.Context, args []string) error {
	if len(args) > 0 {
		return &exitError{ExitBadInput, fmt.Sprintf("unknown dep command %q\n%s", args[0], depUsage)}
	}
	return &exitError{ExitBadInput, "want add or remove\n" + depUsage}
}

func runDepAdd(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if len(args) != 3 {
		return &exitError{ExitBadInput, fmt.Sprintf("want 3 arguments, got %d\n%s", len(args), depUsage)}
	}
	t, err := docket.ParseDepType(args[1])
	if err != nil {
		return err
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	i, err := s.AddDep(ctx, args[0], docket.Dep{Type: t, ID: args[2]})
	return r.done(fmt.Sprintf("%s %s %s: updated", args[0], t, args[2]), i, err)
}

// runDepRemove is dep remove ID [TYPE] OTHER: without TYPE, the one edge
// ID holds to OTHER, whatever its type.
func runDepRemove(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if len(args) != 2 && len(args) != 3 {
		return &exitError{ExitBadInput, fmt.Sprintf("want 2 or 3 arguments, got %d\n%s", len(args), depUsage)}
	}
	id, other := args[0], args[len(args)-1]
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	var t docket.DepType
	if len(args) == 3 {
		t = docket.DepType(args[1]) // any type an edge may hold, imported ones too
	} else {
		i, err := s.Get(ctx, id)
		if err != nil {
			return err
		}
		var types []string
		for _, d := range i.Deps {
			if d.ID == other {
				types = append(types, string(d.Type))
			}
		}
		switch len(types) {
		case 0:
			var have []string
			for _, d := range i.Deps {
				have = append(have, string(d.Type)+" "+d.ID)
			}
			if len(have) == 0 {
				have = []string{"none"}
			}
			return &exitError{ExitBadInput, fmt.Sprintf("%s has no edge to %s; it has: %s", id, other, strings.Join(have, ", "))}
		case 1:
			t = docket.DepType(types[0])
		default:
			return &exitError{ExitBadInput, fmt.Sprintf("%s has %d edges to %s (%s): name the one to remove, as docket dep remove %s %s %s", id, len(types), other, strings.Join(types, ", "), id, types[0], other)}
		}
	}
	i, err := s.RemoveDep(ctx, id, docket.Dep{Type: t, ID: other})
	return r.done(fmt.Sprintf("%s %s %s removed: updated", id, t, other), i, err)
}

func runExport(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 0, "export "+exportArgs()); err != nil {
		return err
	}
	f := trackerformat.Lookup(r.o.format)
	switch {
	case f == trackerformat.DocketFormat:
	case f == nil || !docket.Exports(f):
		return &exitError{ExitBadInput, fmt.Sprintf("--format %q: use %s", r.o.format, formatNames(docket.ExportFormats(), ""))}
	case r.o.check:
		return &exitError{ExitBadInput, "--check compares the canonical docket export; it takes no --format " + f.Name}
	}
	if r.o.check {
		return r.checkExport(ctx)
	}
	_, exportPath, _, err := r.paths()
	if err != nil {
		return err
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	want, err := s.Export(ctx)
	if err != nil {
		return err
	}
	if f != trackerformat.DocketFormat {
		return r.exportAs(f, exportPath, want)
	}
	switch {
	case r.o.out == "-":
		_, err := r.env.Stdout.Write(want)
		return err
	case r.o.out != "":
		return os.WriteFile(r.o.out, want, 0o644)
	}
	if err := s.RewriteExport(ctx); err != nil {
		return err
	}
	fmt.Fprintf(r.env.Stdout, "wrote %s (%d issues)\n", exportPath, bytes.Count(want, []byte("\n")))
	return nil
}

// exportAs writes the records of the canonical export data in format f
// (beads' issues.jsonl shape, D59) to -o FILE, or to stdout; the canonical
// export is left as it is.
func (r *runner) exportAs(f *trackerformat.Format, exportPath string, data []byte) error {
	issues, err := docket.ReadJSONL(exportPath, bytes.NewReader(data), "")
	if err != nil {
		return err
	}
	out, err := docket.ExportAs(f, issues)
	if err != nil {
		return err
	}
	if r.o.out == "" || r.o.out == "-" {
		_, err = r.env.Stdout.Write(out)
		return err
	}
	if err := os.WriteFile(r.o.out, out, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", r.o.out, err)
	}
	fmt.Fprintf(r.env.Stdout, "wrote %s (%d issues in %s)\n", r.o.out, len(issues), f.Desc)
	return nil
}

// checkExport is export --check (D67): it compares the export with what
// docket would write and writes nothing; exit 1 names the line, or what
// differs.
func (r *runner) checkExport(ctx context.Context) error {
	r.warned = true // a committed index is the drift reported below
	b, opts, err := r.options("")
	if err != nil {
		return err
	}
	d, err := docket.CheckExport(ctx, b, opts)
	if err != nil || d == nil {
		return err
	}
	if d.Line > 0 {
		return &exitError{ExitNo, fmt.Sprintf("%s:%d: %s", opts.Export, d.Line, d.Reason)}
	}
	return &exitError{ExitNo, d.Reason}
}

func runImport(ctx context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 1, "import "+importArgs()); err != nil {
		return err
	}
	var data []byte
	var err error
	name := args[0]
	if name == "-" {
		data, err = io.ReadAll(r.env.Stdin)
		name = "stdin"
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return &exitError{ExitBadInput, fmt.Sprintf("read %s: %v", name, err)}
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return err
	}
	set, err := docket.DecodeImport(name, data, r.o.format, s.Prefix(), r.now())
	var ps *docket.Problems
	if errors.As(err, &ps) {
		return err // it says nothing was imported
	}
	if err != nil {
		return fmt.Errorf("%w (nothing was imported)", err)
	}
	how := "given"
	if set.Detected {
		how = "detected; --format sets it"
	}
	fmt.Fprintf(r.env.Stdout, "format: %s (%s)\n", set.Format, how)
	var res docket.ImportResult
	if r.o.dryRun {
		res, err = s.DryRun(ctx, set)
	} else {
		res, err = s.Import(ctx, set)
	}
	if !committed(err) {
		return err
	}
	for _, w := range set.Warnings {
		fmt.Fprintf(r.env.Stderr, "warning: %s\n", w)
	}
	if set.WarningCount > len(set.Warnings) {
		fmt.Fprintf(r.env.Stderr, "warning: ... and %d more\n", set.WarningCount-len(set.Warnings))
	}
	for k, d := range res.Dangling {
		if k == docket.MaxProblems {
			fmt.Fprintf(r.env.Stderr, "warning: ... and %d more dependencies on ids not in the file nor the tracker\n", len(res.Dangling)-k)
			break
		}
		fmt.Fprintf(r.env.Stderr, "warning: %s:%d: %s %s %s, which is neither in the file nor in the tracker; kept\n", name, d.Line, d.From, d.Dep.Type, d.Dep.ID)
	}
	if set.Skipped > 0 {
		fmt.Fprintf(r.env.Stdout, "left out, not issues: %s (bd remember); docket keeps issues only\n", format.Count(set.Skipped, "bd memory line"))
	}
	if f := set.ForeignSummary(); f != "" {
		fmt.Fprintf(r.env.Stdout, "kept as written, not docket's own: %s\n", f)
	}
	var sts []docket.Status
	for _, i := range set.Issues {
		sts = append(sts, i.Status)
	}
	if u := s.Workflow().Unmapped(sts); len(u) > 0 {
		fmt.Fprintf(r.env.Stderr, "warning: %s\n", docket.UnmappedNote(u))
	}
	verb := "imported"
	if r.o.dryRun {
		verb = "dry run, nothing changed; would import"
	}
	_, perr := fmt.Fprintf(r.env.Stdout, "%s %s: %d created, %d updated, %d unchanged; %d dependencies in records (%d on ids not in the tracker), %d added to stored records; %d warnings\n",
		verb, name, res.Created, res.Updated, res.Unchanged, res.Deps, len(res.Dangling), res.Edges, set.WarningCount+len(res.Dangling))
	return errors.Join(err, perr)
}

func runMerge(_ context.Context, r *runner, _ *clikit.Context, args []string) error {
	if err := needArgs(args, 3, "merge BASE OURS THEIRS"); err != nil {
		return err
	}
	var sides [3][]docket.Issue
	for k, p := range args {
		data, err := os.ReadFile(p)
		if err != nil {
			return &exitError{ExitBadInput, fmt.Sprintf("read %s: %v (OURS left as it was)", p, err)}
		}
		is, err := docket.ReadJSONL(p, bytes.NewReader(data), "")
		if err != nil {
			return fmt.Errorf("%w (OURS left as it was)", err)
		}
		sides[k] = is
	}
	merged, collisions, future := docket.Merge(sides[0], sides[1], sides[2])
	for _, w := range future {
		// Loud: a date in the future no longer wins a conflict silently (D91).
		fmt.Fprintf(r.env.Stderr, "docket merge: warning: %s\n", w)
	}
	out, err := docket.Canonical(merged)
	if err != nil {
		return err
	}
	// The result must be an export docket reads: one prefix, the one of
	// the first record of ours (else theirs, else base).
	var prefix string
	for _, k := range []int{1, 2, 0} {
		if len(sides[k]) > 0 {
			prefix, _, _ = docket.SplitID(sides[k][0].ID)
			break
		}
	}
	if _, err := docket.ReadJSONL("merge result", bytes.NewReader(out), prefix); err != nil {
		return &exitError{ExitBadInput, fmt.Sprintf("the merged export would not be one docket reads (%v): the two sides use different id prefixes, or a side was not a %s tracker; OURS left as it was", err, prefix)}
	}
	if err := os.WriteFile(args[1], out, 0o644); err != nil {
		return fmt.Errorf("write merge result: %w", err)
	}
	if len(collisions) > 0 {
		return &exitError{ExitNo, fmt.Sprintf("%s created on both sides with different content (a random-id collision); kept ours, re-create theirs with docket create", strings.Join(collisions, ", "))}
	}
	return nil
}

func runMCP(ctx context.Context, r *runner, c *clikit.Context, args []string) error {
	if err := needArgs(args, 0, "mcp"); err != nil {
		return err
	}
	_, export, root, err := r.paths()
	if err != nil {
		return err
	}
	if root == "" {
		if root, err = r.env.Getwd(); err != nil {
			return err
		}
	}
	s, err := r.open(ctx, "")
	if err != nil {
		return fmt.Errorf("cannot serve: %w", err)
	}
	// The instructions name the files this repository's configuration
	// says (open has loaded it when there is a root above).
	if rel, err := filepath.Rel(root, export); err == nil && filepath.IsLocal(rel) {
		export = filepath.ToSlash(rel)
	}
	var register, decisions string
	if r.cfg != nil {
		register, decisions = r.cfg.Register, r.cfg.Decisions
	}
	level := slog.LevelWarn
	if v := r.env.Getenv("DOCKET_LOG"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			return &exitError{ExitBadInput, fmt.Sprintf("DOCKET_LOG=%q: use debug, info, warn or error", v)}
		}
	}
	log := slog.New(slog.NewTextHandler(r.env.Stderr, &slog.HandlerOptions{Level: level}))
	if r.o.mcp.maxInFlight < 1 || r.o.mcp.maxReplyMiB < 1 || r.o.mcp.maxSessions < 1 || r.o.mcp.maxConns < 1 || r.o.mcp.maxConnsPerAddr < 1 {
		return &exitError{ExitBadInput, "--max-in-flight, --max-reply-mib, --max-sessions, --max-conns and --max-conns-per-addr take a number of at least 1"}
	}
	if r.o.mcp.bodyTimeout <= 0 || r.o.mcp.sessionIdle <= 0 || r.o.mcp.writeTimeout <= 0 {
		return &exitError{ExitBadInput, "--body-timeout, --session-idle and --write-timeout take a duration above 0, such as 30s or 30m"}
	}
	o := mcp.Options{Store: s, Dir: root, Log: log, Version: BuildVersion(), MaxResult: r.o.mcp.maxReplyMiB << 20,
		Export: export, Register: register, Decisions: decisions, ReadOnly: r.o.mcp.readOnly}
	// The register tools run in a child process, killed when a request is
	// cancelled or times out (D71).
	if o.CheckProcess, err = mcp.SelfCheckProcess("docket"); err != nil {
		log.Warn("running register checks in process: a cancelled check stops at its next file", "error", err)
	}
	if r.o.mcp.http == "" {
		httpOnly := false
		for _, name := range []string{"token-file", "allow-origin", "body-timeout", "max-sessions", "session-idle", "write-timeout", "max-conns", "max-conns-per-addr"} {
			httpOnly = httpOnly || c.IsSet(name)
		}
		if httpOnly {
			return &exitError{ExitBadInput, "--token-file, --allow-origin, --body-timeout, --max-sessions, --session-idle, --write-timeout, --max-conns and --max-conns-per-addr apply to --http only"}
		}
		return stdio.Serve(ctx, mcp.New(o), stdio.Options{In: r.env.Stdin, Out: r.env.Stdout, Log: log, MaxInFlight: r.o.mcp.maxInFlight, MaxReply: o.MaxResult})
	}
	h := streamhttp.HTTPOptions{Addr: r.o.mcp.http, AllowOrigins: r.o.mcp.allowOrigins, Log: log, MaxInFlight: r.o.mcp.maxInFlight, MaxReply: o.MaxResult,
		BodyTimeout: r.o.mcp.bodyTimeout, MaxSessions: r.o.mcp.maxSessions, SessionIdle: r.o.mcp.sessionIdle,
		WriteTimeout: r.o.mcp.writeTimeout, MaxConns: r.o.mcp.maxConns, MaxConnsPerAddr: r.o.mcp.maxConnsPerAddr}
	if r.o.mcp.tokenFile != "" {
		if h.Token, err = streamhttp.ReadTokenFile(r.o.mcp.tokenFile); err != nil {
			return &exitError{ExitBadInput, words(err)}
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ready := make(chan string, 1)
	h.Ready = ready
	go func() {
		if addr, ok := <-ready; ok {
			fmt.Fprintf(r.env.Stderr, "docket mcp: serving MCP over HTTP at http://%s%s\n", addr, streamhttp.HTTPPath)
		}
	}()
	return streamhttp.ServeHTTP(ctx, mcp.New(o), h)
}
