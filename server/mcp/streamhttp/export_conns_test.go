package mcp

// OpenConns returns the connections h's caps count open (D91).
func OpenConns(h *HTTPHandler) int { return h.conns.open() }
