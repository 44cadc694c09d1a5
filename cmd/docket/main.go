// Command docket is the repository's own issue tracker: a SQLite working
// index under .docket/ and a canonical JSONL export in .knowledge/tracker/.
// All logic lives in server/cli.
package main

import (
	"os"

	"github.com/claimslint/claimslint/server/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
