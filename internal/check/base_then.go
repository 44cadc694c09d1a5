package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/claimslint/claimslint/internal/config"
	"github.com/claimslint/claimslint/internal/repo"
	"github.com/claimslint/claimslint/internal/snapshot"
)

// baseThenRule reads, with --base, the register as it was at the base
// revision, once per run: the configuration there, and the register,
// decision, adopted and claims files that configuration names, loaded as
// a snapshot of their own (never evaluated). CL011, CL012, CL014 and
// CL015 compare it with the register now. It reports nothing: it is not
// in Rules, and runs when a rule requires it.
var baseThenRule = &Rule{Name: "base-register", Run: baseThenRun, ResultType: reflect.TypeOf((*baseView)(nil)),
	Doc: "The register at --base (configuration, register, decisions, claims files), read once for the --base rules."}

// baseView is baseThenRule's result.
type baseView struct {
	// Commit is the commit --base names.
	Commit string
	// Snap is the register at the commit; nil when it could not be read
	// (Err says why).
	Snap *snapshot.Snapshot
	Err  error
}

// errBaseTooLarge: the register at the base is over the Markdown a run
// reads (D70).
var errBaseTooLarge = errors.New("the register at the base is over the Markdown claimslint reads in one run")

// baseThenRun resolves --base and loads the register at it. A revision
// that names no commit is an error (exit 2), worded without git's command
// line; a register at the base that cannot be read is the view's Err,
// which the --base rules report.
func baseThenRun(p *Pass) error {
	if p.Opts.Base == "" {
		return nil
	}
	commit, err := repo.Commit(p.Snap.Dir, p.Opts.Base)
	if err != nil {
		if errors.Is(err, repo.ErrNotGit) {
			return fmt.Errorf("--base %s: %s is %w: --base compares git revisions", p.Opts.Base, p.Snap.Dir, err)
		}
		return fmt.Errorf("--base %w", err)
	}
	v := &baseView{Commit: commit}
	if p.res.budget.spent() {
		v.Err = context.DeadlineExceeded // the --base rules report the budget's finding
		p.SetResult(v)
		return nil
	}
	ctx, cancel := context.WithDeadline(context.Background(), p.res.budget.deadline)
	defer cancel()
	v.Snap, v.Err = loadAt(ctx, p.Snap.Dir, commit)
	if errors.Is(v.Err, fs.ErrNotExist) {
		v.Err = nil // no register at the base: nothing was accepted there
	}
	p.SetResult(v)
	return nil
}

// loadAt loads the register of the repository at dir as it is at commit:
// its files are written to a temporary directory (regular files only,
// each at most snapshot.MaxMarkdown, snapshot.MaxMarkdownTotal in all),
// loaded there, and the directory removed.
func loadAt(ctx context.Context, dir, commit string) (*snapshot.Snapshot, error) {
	tmp, err := os.MkdirTemp("", "claimslint-base-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// A .git that is no repository: git, asked inside tmp, answers that
	// it is not a work tree, and never reads a repository tmp lies in.
	if err := os.WriteFile(filepath.Join(tmp, ".git"), []byte("gitdir: /nonexistent/claimslint-base\n"), 0o644); err != nil {
		return nil, err
	}
	if err := repo.Extract(dir, commit, []string{config.FileName}, tmp, config.MaxSize, config.MaxSize); err != nil {
		return nil, err
	}
	cfg, err := config.Load(tmp)
	if err != nil {
		return nil, err
	}
	roots := []string{cfg.Register, cfg.Decisions}
	roots = append(roots, cfg.Adopt.Dirs()...)
	if cfg.Inline != nil {
		roots = append(roots, cfg.ClaimsDir())
	}
	if err := repo.Extract(dir, commit, roots, tmp, snapshot.MaxMarkdown, snapshot.MaxMarkdownTotal); err != nil {
		if errors.Is(err, repo.ErrTreeTooLarge) {
			return nil, fmt.Errorf("%w: %v", errBaseTooLarge, err)
		}
		return nil, err
	}
	return snapshot.LoadContext(ctx, tmp)
}
