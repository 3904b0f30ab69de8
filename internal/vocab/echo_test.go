package vocab

import (
	"strings"
	"testing"
)

func TestEchoAndCut(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes, two per character
	cases := []struct {
		name, reason, got, want string
	}{
		{"short echo", "short values are quoted whole", Echo("a\"b"), `"a\"b"`},
		{"short cut", "short values are kept whole", Cut("abc"), "abc"},
		{"long echo", "cut at a character boundary at or below 64 bytes", Echo(long), `"` + strings.Repeat("é", 32) + `…" (80 bytes)`},
		{"long cut", "the length follows the cut", Cut(strings.Repeat("x", 1000)), strings.Repeat("x", 64) + "… (1,000 bytes)"},
		{"grouped", "thousands separated", Grouped(-1234567), "-1,234,567"},
		{"grouped small", "no separator below 1000", Grouped(999), "999"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s (%s): got %q, want %q", c.name, c.reason, c.got, c.want)
		}
	}
}
