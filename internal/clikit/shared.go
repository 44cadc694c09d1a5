package clikit

import (
	"flag"

	"github.com/urfave/cli/v2"
)

// sharedBool wraps a flag urfave keeps in a package variable (the help,
// version and completion flags). urfave's Apply records the default on the
// flag value itself, so two apps parsing at once in one process (parallel
// tests of Main) race on that write; this Apply works on a copy, and the
// help shows no default, as urfave's own does for these flags.
type sharedBool struct{ cli.BoolFlag }

func (f *sharedBool) Apply(set *flag.FlagSet) error {
	c := f.BoolFlag
	return c.Apply(set)
}

func (f *sharedBool) GetDefaultText() string { return "" }

func init() {
	for _, p := range []*cli.Flag{&cli.HelpFlag, &cli.VersionFlag, &cli.BashCompletionFlag} {
		if b, ok := (*p).(*cli.BoolFlag); ok {
			*p = &sharedBool{*b}
		}
	}
}
