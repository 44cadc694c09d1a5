package docket

// SeenSize exposes the remembered export size to the external tests.
func SeenSize(s *Service) int64 {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	return s.seen.size
}
