package glob

import (
	"strings"
	"sync"

	"github.com/claimslint/claimslint/internal/config"
)

// Literal reports whether the glob has no meta character: it matches the
// one path it spells, and no automaton is built (D92).
func (g *Glob) Literal() bool { return g.literal }

// Prefix is the literal directory part of a glob, up to its first meta
// character, ending in '/' (or empty).
func Prefix(glob string) string {
	i := strings.IndexAny(glob, globMeta)
	if i < 0 {
		return glob
	}
	return glob[:strings.LastIndexByte(glob[:i], '/')+1]
}

// Valid reports why glob cannot name repository files, or "".
func Valid(glob string) string {
	if plainPath(glob) && !config.InGitDir(glob) {
		return "" // the usual Path, asked of every claim twice a run (D92)
	}
	return valid(glob)
}

// valid is Valid without plainPath's shortcut: FuzzValid holds the two
// to the same answer.
func valid(glob string) string {
	if err := config.InsideRepo(glob); err != nil {
		return err.Error()
	}
	return Syntax(glob)
}

// plainPath reports whether glob is a relative path of ASCII letters,
// digits, _, - and . in components joined by single slashes, none of them
// . or ..: a path that is inside the repository and a valid glob unless a
// component is .git, without the cleaning and parsing InsideRepo and
// Syntax do.
func plainPath(glob string) bool {
	if len(glob) == 0 || len(glob) > Max {
		return false
	}
	start := 0 // of the current component
	for i := 0; i <= len(glob); i++ {
		if i < len(glob) && glob[i] != '/' {
			switch c := glob[i]; {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
				continue
			}
			return false
		}
		if seg := glob[start:i]; seg == "" || seg == "." || seg == ".." {
			return false
		}
		start = i + 1
	}
	return true
}

// compiled caches the globs Match compiles: callers test many paths
// against a few globs.
var compiled struct {
	sync.Mutex
	m map[string]*Glob
}

// Match reports whether the repository path p matches glob; an invalid
// glob matches nothing.
func Match(glob, p string) bool {
	compiled.Lock()
	g, ok := compiled.m[glob]
	if !ok {
		var err error
		if g, err = Compile(glob); err != nil {
			g = nil
		}
		if compiled.m == nil || len(compiled.m) >= 256 {
			compiled.m = map[string]*Glob{}
		}
		compiled.m[glob] = g
	}
	compiled.Unlock()
	return g != nil && g.Match(p)
}
