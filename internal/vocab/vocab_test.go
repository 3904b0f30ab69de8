package vocab

import (
	"errors"
	"testing"
)

// TestEveryValue walks every value of both enumerations one past each end:
// in-range values round-trip through their text names and are Valid; the
// values outside are neither and fail to marshal with ErrUnknownName.
func TestEveryValue(t *testing.T) {
	type enum struct {
		name  string
		names []string
		check func(v int) (s string, valid bool, text []byte, merr error, back int, uerr error)
	}
	enums := []enum{
		{"Fabric", FabricNames(), func(v int) (string, bool, []byte, error, int, error) {
			f := Fabric(v)
			text, merr := f.MarshalText()
			var g Fabric = -7
			uerr := g.UnmarshalText(text)
			return f.String(), f.Valid(), text, merr, int(g), uerr
		}},
		{"Isolation", IsolationNames(), func(v int) (string, bool, []byte, error, int, error) {
			i := Isolation(v)
			text, merr := i.MarshalText()
			var j Isolation = -7
			uerr := j.UnmarshalText(text)
			return i.String(), i.Valid(), text, merr, int(j), uerr
		}},
	}
	for _, e := range enums {
		for v := -1; v <= len(e.names); v++ {
			s, valid, text, merr, back, uerr := e.check(v)
			in := v >= 0 && v < len(e.names)
			if valid != in {
				t.Errorf("%s(%d).Valid() = %v, want %v", e.name, v, valid, in)
			}
			if !in {
				if !errors.Is(merr, ErrUnknownName) {
					t.Errorf("%s(%d).MarshalText error = %v, want ErrUnknownName", e.name, v, merr)
				}
				if s == "" {
					t.Errorf("%s(%d).String() is empty", e.name, v)
				}
				continue
			}
			if s != e.names[v] || string(text) != e.names[v] || merr != nil {
				t.Errorf("%s(%d): String %q, MarshalText %q, %v; want %q", e.name, v, s, text, merr, e.names[v])
			}
			if uerr != nil || back != v {
				t.Errorf("%s: UnmarshalText(%q) = %d, %v; want %d", e.name, text, back, uerr, v)
			}
		}
	}
	var f Fabric = RoCE
	if err := f.UnmarshalText([]byte("Infiniband")); !errors.Is(err, ErrUnknownName) || f != RoCE {
		t.Errorf("names are case-sensitive and a bad name leaves the value: got %v, %v", f, err)
	}
	var i Isolation = Dedicated
	if err := i.UnmarshalText([]byte("bare-metal")); !errors.Is(err, ErrUnknownName) || i != Dedicated {
		t.Errorf("unknown isolation name: got %v, %v", i, err)
	}
	if NoFabric >= Ethernet || Ethernet >= RoCE || RoCE >= InfiniBand || Shared >= Dedicated || Dedicated >= Physical {
		t.Error("the enumerations must be ordered weakest first")
	}
}
