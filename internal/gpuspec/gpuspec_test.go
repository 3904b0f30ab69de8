package gpuspec

import "testing"

func TestTable(t *testing.T) {
	models := map[string]bool{}
	aliases := map[string]string{}
	for _, s := range Table() {
		if models[s.Model] {
			t.Errorf("model %q appears twice", s.Model)
		}
		models[s.Model] = true
		if !(s.MemoryGiB > 0 && s.BF16TFLOPS > 0 && s.TDPWatts > 0 && s.SpeedFactor > 0) || s.SpeedBasis == "" || len(s.Aliases) == 0 {
			t.Errorf("%s: incomplete spec %+v", s.Model, s)
		}
		if s.SpeedFactor != s.BF16TFLOPS/referenceTFLOPS {
			t.Errorf("%s: speed factor %g, want TFLOPS ratio %g", s.Model, s.SpeedFactor, s.BF16TFLOPS/referenceTFLOPS)
		}
		for _, a := range s.Aliases {
			if m, dup := aliases[a]; dup {
				t.Errorf("alias %q means both %s and %s", a, m, s.Model)
			}
			aliases[a] = s.Model
		}
	}
	if ref, ok := Lookup(ReferenceModel); !ok || ref.SpeedFactor != 1 {
		t.Errorf("reference %s: %+v, %v; want speed factor 1", ReferenceModel, ref, ok)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup of an unknown model succeeded")
	}
	a, b := Table(), Table()
	a[0].Aliases[0] = "changed"
	if b[0].Aliases[0] == "changed" {
		t.Error("Table shares its slices between calls")
	}
}
