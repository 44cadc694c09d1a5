package register

import (
	"regexp"
	"sync"
)

// lazyRE compiles pat when it is first used, not when the package is
// initialised: most of this package's patterns read adopted records and
// templates, which a plain check of a register in our own format never
// does, and every process that links the package paid for them at start
// (D92). A pattern that does not compile panics at its first use, as
// regexp.MustCompile at init did; TestLazyPatternsCompile compiles each.
func lazyRE(pat string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pat) })
}

// LazyRE is lazyRE for the packages that adopt, migrate and write records
// (internal/adopt): their patterns too are compiled at first use, not by
// every process at start (D92).
func LazyRE(pat string) func() *regexp.Regexp { return lazyRE(pat) }
