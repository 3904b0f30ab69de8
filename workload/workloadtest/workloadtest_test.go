package workloadtest_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
)

func TestFixturesValid(t *testing.T) {
	for _, w := range workloadtest.All() {
		if err := w.Validate(); err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
	}
	if err := workloadtest.Scenario().Validate(); err != nil {
		t.Errorf("scenario: %v", err)
	}
}

func TestScenarioRoundTrip(t *testing.T) {
	s := workloadtest.Scenario()
	var buf bytes.Buffer
	if err := workload.WriteScenario(&buf, s); err != nil {
		t.Fatal(err)
	}
	got, err := workload.ReadScenario(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, got, cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func TestFixturesFresh(t *testing.T) {
	a := workloadtest.Pretrain()
	a.Requirements.Models["H100 SXM"] = 7
	if b := workloadtest.Pretrain(); b.Requirements.Models["H100 SXM"] != 1 {
		t.Errorf("fixtures share state: got %v", b.Requirements.Models["H100 SXM"])
	}
}
