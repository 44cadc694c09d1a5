// Command floor is the I/O floor of the real-tree benchmark (bench/run.sh
// --only real): `floor DIR LIST` runs git ls-files -s once in DIR and
// reads every file LIST names, each once: what any gate must do at least.
// `floor -no-git DIR LIST` reads the files alone: since check reads the
// index itself and starts no git (D9), the page quotes it beside the
// floor, so the floor's git process cannot flatter check unseen.
//
// It is a program of its own, built from the standard library alone, so
// that its start-up is what a small Go program's is: run as the bench
// binary, which loads the whole harness (the MCP SDKs, SQLite), the floor
// took 4-8 ms longer than this, and a ratio to it flattered check (D92).
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	noGit := len(args) > 0 && args[0] == "-no-git"
	if noGit {
		args = args[1:]
	}
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor [-no-git] DIR LIST")
		return 2
	}
	dir, list := args[0], args[1]
	if !noGit {
		cmd := exec.Command("git", "ls-files", "-z", "-s")
		cmd.Dir = dir
		if _, err := cmd.Output(); err != nil {
			fmt.Fprintln(os.Stderr, "floor: git ls-files:", err)
			return 1
		}
	}
	f, err := os.Open(list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		return 1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if _, err := os.ReadFile(filepath.Join(dir, sc.Text())); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			return 1
		}
	}
	return 0
}
