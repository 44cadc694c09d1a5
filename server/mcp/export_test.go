package mcp

import "github.com/google/jsonschema-go/jsonschema"

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

// WithCheckStarted is o with a hook told the pid of each check child the
// server starts.
func WithCheckStarted(o Options, f func(pid int)) Options {
	o.checkStarted = f
	return o
}

// BodyBytesHeld is how many body bytes h's budget holds now.
func BodyBytesHeld(h *HTTPHandler) int64 {
	h.bodies.mu.Lock()
	defer h.bodies.mu.Unlock()
	return h.bodies.used
}

// Receiving is how many of h's POSTs are reading their bodies now.
func Receiving(h *HTTPHandler) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.calls {
		c.mu.Lock()
		if c.phase == callReceiving {
			n++
		}
		c.mu.Unlock()
	}
	return n
}

// Sessions is how many 2025-11-25 sessions h holds.
func Sessions(h *HTTPHandler) int { return h.sessions.live() }

// CheckOutputs sets whether tools validate their output (on in tests; off
// in production, D82) and returns the previous setting.
func CheckOutputs(on bool) bool {
	was := checkOutputs
	checkOutputs = on
	return was
}

// WithListChanged is o declaring tools.listChanged, so that a listen stays
// open (the transport's tests of open listens).
func WithListChanged(o Options) Options {
	o.listChanged = true
	return o
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

// SDKError is sdkError, for the tests of package mcp_test.
var SDKError = sdkError
