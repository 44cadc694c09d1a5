// Command listgen writes the generated lists of the registries (D103).
// `go generate` runs it in a package that holds one (its //go:generate
// line); from the module root it writes, or with -check verifies, every
// one:
//
//	go run ./internal/listgen/cmd/listgen [-check] [DIR...]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/claimslint/claimslint/internal/listgen"
)

func main() {
	check := flag.Bool("check", false, "write nothing: exit 1 naming each generated file that is out of date")
	flag.Parse()
	if err := run(*check, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "listgen:", err)
		os.Exit(1)
	}
}

func run(check bool, dirs []string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			return fmt.Errorf("no go.mod above %s", wd)
		}
		root = up
	}
	if len(dirs) == 0 {
		rel, err := filepath.Rel(root, wd)
		if err != nil {
			return err
		}
		dirs = []string{filepath.ToSlash(rel)}
		if rel == "." {
			dirs = listgen.Dirs()
		}
	}
	for _, d := range dirs {
		d = filepath.ToSlash(filepath.Clean(d))
		if check {
			if err := listgen.Stale(root, d); err != nil {
				return err
			}
			continue
		}
		written, err := listgen.Write(root, d)
		if err != nil {
			return err
		}
		for _, p := range written {
			fmt.Println("wrote", p)
		}
	}
	return nil
}
