package src

func f(m any) {
	// case idRecovered: reply(id) is still to come
	switch m.(type) {
	}
	reply(a) // want "anchor ambiguous: .reply.+ matches 2 code lines"
	reply(b) // want "related: also matches"
	switch x := m.(type) {
	default: // want "anchored line matches forbidden `default:`"
		_ = x
	}
}
