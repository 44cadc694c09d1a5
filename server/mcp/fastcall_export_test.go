package mcp

// ThroughSDK is o with every tools/call served by the SDK's dispatch, none
// by the transport's fast path (D82).
func ThroughSDK(o Options) Options {
	o.sdkCalls = true
	return o
}

// FastServed is how many tools/calls h's front served itself (D82).
func FastServed(h *HTTPHandler) int64 { return h.fastServed.Load() }
