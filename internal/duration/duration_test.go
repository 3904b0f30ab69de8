package duration

import (
	"errors"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  error
	}{
		{"90s", 90 * time.Second, nil},
		{"720h0m0s", 720 * time.Hour, nil},
		{"3d", 72 * time.Hour, nil},
		{"1.5d", 36 * time.Hour, nil},
		{"1mo", Month, nil},
		{"3y", 3 * Year, nil},
		{"-2d", -48 * time.Hour, nil},
		{"1000y", 0, ErrRange},
		{"3 d", 0, ErrSyntax},
		{"1e3d", 0, ErrSyntax},
		{"d", 0, ErrSyntax},
		{"soon", 0, ErrSyntax},
		{"", 0, ErrSyntax},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
