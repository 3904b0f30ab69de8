package vocab

import (
	"strconv"
	"unicode/utf8"
)

// MaxEchoBytes bounds how much of a value as given an error message of the
// provider, workload and tco packages echoes: longer values are cut, at a
// character boundary, to their first MaxEchoBytes bytes followed by "…" and
// their length. The packages export it under their own names.
const MaxEchoBytes = 64

// Grouped formats n with a comma every three digits ("999,900").
func Grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Cut returns s cut to MaxEchoBytes, at a character boundary, followed by
// "…" and its length in bytes; s itself when it is short enough.
func Cut(s string) string {
	if len(s) <= MaxEchoBytes {
		return s
	}
	return s[:cutIndex(s)] + "… (" + Grouped(len(s)) + " bytes)"
}

// Echo returns s quoted, cut as Cut does (the length after the quotes).
func Echo(s string) string {
	if len(s) <= MaxEchoBytes {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cutIndex(s)]+"…") + " (" + Grouped(len(s)) + " bytes)"
}

// cutIndex returns the largest character boundary at or below MaxEchoBytes.
func cutIndex(s string) int {
	n := MaxEchoBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
