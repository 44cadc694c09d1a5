// Command claimslint checks that a repository's code still carries what its
// decision register claims. See README.md; the logic lives in
// internal/lintcmd.
package main

import (
	"os"

	"github.com/claimslint/claimslint/internal/lintcmd"
)

func main() {
	lintcmd.TuneGC()
	os.Exit(lintcmd.Main(os.Args, os.Stdout, os.Stderr))
}
