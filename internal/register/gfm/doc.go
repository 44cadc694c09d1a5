// Package gfm is goldmark's GitHub Flavoured Markdown extensions (table,
// strikethrough, task list, linkify, and GFM, the four together), copied
// from github.com/yuin/goldmark v1.8.7, directory extension/, files
// table.go, strikethrough.go, tasklist.go, linkify.go and gfm.go (MIT
// licence, LICENSE here), so that their patterns compile at first use.
//
// goldmark's extension package compiles its patterns when a program
// starts: linkify's two, each a character class repeated up to 256 times,
// took about 0.9 ms, a third of claimslint's package initialisation and
// 3% of a check of a thousand claims, in every run, where a check renders
// no HTML and links nothing (D92). The only changes from goldmark's files
// are the package clause, each package-level pattern wrapped in lazy (and
// called where it is used), and the options and constructors claimslint
// does not call left out (deadcode). TestSameAsGoldmark and FuzzSameAsGoldmark
// render with goldmark's extension and with this copy and compare the
// HTML byte for byte; a goldmark upgrade is a new copy of the five files.
package gfm

import (
	"regexp"
	"sync"
)

// lazy compiles pat at its first use, once.
func lazy(pat string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pat) })
}
