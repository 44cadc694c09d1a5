package streamhttp

// Held is what an HTTPHandler holds at one moment, as its caps count it
// (D71, D91): a gauge for a log line or a health check, and what the
// tests of those caps read instead of reaching into the handler.
type Held struct {
	// Conns are the connections open; Sessions the 2025-11-25 sessions.
	Conns, Sessions int
	// Receiving are the POSTs whose bodies are being read, and BodyBytes
	// the bytes the body budget holds for them.
	Receiving int
	BodyBytes int64
	// FastServed counts the tools/calls the front has served itself, not
	// through go-sdk's handler (D82), since the handler was built.
	FastServed int64
}

// Held is what f holds now.
func (f *HTTPHandler) Held() Held {
	h := Held{Conns: f.conns.open(), Sessions: f.sessions.live(), FastServed: f.fastServed.Load()}
	f.bodies.mu.Lock()
	h.BodyBytes = f.bodies.used
	f.bodies.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		c.mu.Lock()
		if c.phase == callReceiving {
			h.Receiving++
		}
		c.mu.Unlock()
	}
	return h
}
