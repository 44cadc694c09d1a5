package mcp

import (
	"sync"

	"github.com/claimslint/claimslint/server/mcp/wire"
	"github.com/google/jsonschema-go/jsonschema"
)

// Every test validates each tool's output against its output schema, which
// production skips (D82).
func init() { checkOutputs = true }

// Registry returns the names of the registry's tools
// and whether each is read-only by its annotations, for the tests of
// package mcp_test; ReadOnlySet is the set the write log and the drain ask.
func Registry() (names []string, readOnly map[string]bool) {
	readOnly = map[string]bool{}
	for _, tl := range (&tools{}).all() {
		names = append(names, tl.def.Name)
		readOnly[tl.def.Name] = tl.readOnly()
	}
	return names, readOnly
}

// ReadOnlySet is readOnlyTools.
func ReadOnlySet() map[string]bool { return readOnlyTools() }

// childPIDs routes the pid of each check child started to the channel
// WatchChildren made for its directory: the tests that watch children run
// in parallel, each in a repository of its own.
var childPIDs sync.Map // dir -> chan int

func init() {
	childStarted = func(dir string, pid int) {
		if ch, ok := childPIDs.Load(dir); ok {
			select {
			case ch.(chan int) <- pid:
			default: // a test that stopped listening never holds the server up
			}
		}
	}
}

// WatchChildren returns the channel on which the pid of every check child
// started on dir arrives (at most 8 not yet received).
func WatchChildren(dir string) <-chan int {
	ch := make(chan int, 8)
	childPIDs.Store(dir, ch)
	return ch
}

// CheckOutputs sets whether tools validate their output (on in tests; off
// in production, D82) and returns the previous setting.
func CheckOutputs(on bool) bool {
	was := checkOutputs
	checkOutputs = on
	return was
}

// NewWithListChanged is New declaring tools.listChanged, which no
// production server sends, so that a subscriptions/listen stays open: the
// transports' tests of open listens.
func NewWithListChanged(o Options) *wire.App {
	caps := Capabilities()
	caps.Tools.ListChanged = true
	return newApp(o, caps)
}

// InputSchemas are the registry's input schemas by tool name: what
// screenCalls checks arguments against.
func InputSchemas() map[string]*jsonschema.Schema {
	m := map[string]*jsonschema.Schema{}
	for _, tl := range (&tools{}).all() {
		m[tl.def.Name] = tl.in
	}
	return m
}
