package tco_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestOneErrorVocabulary: the packages share one sentinel for one kind of
// problem, under one name, with a text that carries no package prefix (the
// errors wrapping it do, once).
func TestOneErrorVocabulary(t *testing.T) {
	same := []struct {
		name string
		a, b error
	}{
		{"missing", provider.ErrMissing, workload.ErrMissing},
		{"not finite", provider.ErrNotFinite, workload.ErrNotFinite},
		{"negative", provider.ErrNegative, workload.ErrNegative},
		{"out of range", provider.ErrOutOfRange, workload.ErrOutOfRange},
		{"unknown name", provider.ErrUnknownName, workload.ErrUnknownName},
		{"malformed", provider.ErrMalformed, workload.ErrMalformed},
		{"too many problems", provider.ErrTooManyProblems, workload.ErrTooManyProblems},
		{"currency", provider.ErrCurrencyMismatch, tco.ErrCurrencyMismatch},
		{"not finite (tco)", provider.ErrNotFinite, tco.ErrNotFinite},
	}
	for _, s := range same {
		if s.a != s.b {
			t.Errorf("%s: %v and %v are different sentinels", s.name, s.a, s.b)
		}
	}
	all := []error{
		provider.ErrMissing, provider.ErrNotFinite, provider.ErrNegative, provider.ErrOutOfRange, provider.ErrUnknownName,
		provider.ErrMalformed, provider.ErrCurrencyMismatch, provider.ErrDuplicateID, provider.ErrInvalidUsage,
		workload.ErrConflict, workload.ErrDuplicate, workload.ErrEmptySamples, workload.ErrUnsorted, workload.ErrZeroPeriod,
		workload.ErrDemand, workload.ErrUnsupportedCurve,
		tco.ErrIncompatible, tco.ErrDoesNotFit, tco.ErrNotOffered, tco.ErrInvalidAssumptions, tco.ErrInfeasible,
		tco.ErrTooManyEvents, tco.ErrNotPrepared, tco.ErrInvalidPolicyChoice,
	}
	for _, e := range all {
		if m := e.Error(); strings.Contains(m, ":") {
			t.Errorf("sentinel %q carries a prefix", m)
		}
	}
	// A workload's unknown kind, read from JSON: the prefix once, and the
	// provider's sentinels match it.
	_, err := workload.ReadWorkload(strings.NewReader(`{"name":"x","kind":"trainin","gpus":8,"workGPUHours":10}`))
	if !errors.Is(err, provider.ErrUnknownName) || !errors.Is(err, workload.ErrMalformed) {
		t.Errorf("error %v: want ErrUnknownName and ErrMalformed", err)
	}
	if n := strings.Count(err.Error(), "workload:"); n != 1 {
		t.Errorf("%q carries the package prefix %d times", err, n)
	}
	if err := (workload.Workload{Kind: workload.Training, GPUs: 1, WorkGPUHours: 1}).Validate(); !errors.Is(err, provider.ErrMissing) {
		t.Errorf("a workload without a name: %v, want provider.ErrMissing too", err)
	}
}
