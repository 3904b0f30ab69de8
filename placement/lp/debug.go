package lp

// tracef reports a step of the engine to s.trace, a hook for debugging
// tests (nil otherwise).
func (s *simplex) tracef(format string, args ...any) {
	if s.trace != nil {
		s.trace(format, args...)
	}
}
