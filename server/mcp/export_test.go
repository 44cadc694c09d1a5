package mcp

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
