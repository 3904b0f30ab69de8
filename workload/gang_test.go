package workload_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/gputco/gputco/workload"
)

func gangJob() workload.Workload {
	return workload.Workload{Name: "pretrain", Kind: workload.Training, GPUs: 512, WorkGPUHours: 512 * 24 * 30,
		Deadline: 60 * 24 * time.Hour, GangSizes: workload.GangSizes{MinGPUs: 256, MaxGPUs: 1024}}
}

// TestGangSizesValidate: a range is valid around GPUs on a finite job; the
// errors name the JSON field.
func TestGangSizesValidate(t *testing.T) {
	if err := gangJob().Validate(); err != nil {
		t.Fatalf("valid range: %v", err)
	}
	svc := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 4, Demand: workload.Constant{Value: 1},
		Horizon: time.Hour, GangSizes: workload.GangSizes{MinGPUs: 1, MaxGPUs: 4}}
	for _, tc := range []struct {
		name  string
		w     workload.Workload
		field string
		err   error
	}{
		{"min zero", func() workload.Workload { w := gangJob(); w.GangSizes.MinGPUs = 0; return w }(), "gangSizes.minGPUs", workload.ErrOutOfRange},
		{"max beyond", func() workload.Workload { w := gangJob(); w.GangSizes.MaxGPUs = workload.MaxGPUs + 1; return w }(), "gangSizes.maxGPUs", workload.ErrOutOfRange},
		{"gpus outside", func() workload.Workload { w := gangJob(); w.GPUs = 2048; return w }(), "gangSizes", workload.ErrConflict},
		{"min above max", func() workload.Workload {
			w := gangJob()
			w.GangSizes = workload.GangSizes{MinGPUs: 600, MaxGPUs: 300}
			return w
		}(), "gangSizes", workload.ErrConflict},
		{"service", svc, "gangSizes", workload.ErrConflict},
	} {
		err := tc.w.Validate()
		var fe *workload.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want a FieldError on %q wrapping %v", tc.name, err, tc.field, tc.err)
		}
	}
}

// TestGangSizesJSON: the range round-trips through JSON as "gangSizes",
// and is left out when zero.
func TestGangSizesJSON(t *testing.T) {
	w := gangJob()
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if got := string(m["gangSizes"]); got != `{"minGPUs":256,"maxGPUs":1024}` {
		t.Errorf("gangSizes = %s", got)
	}
	var back workload.Workload
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.GangSizes != w.GangSizes {
		t.Errorf("round trip: %+v, want %+v", back.GangSizes, w.GangSizes)
	}
	w.GangSizes = workload.GangSizes{}
	b, _ = json.Marshal(w)
	m = nil
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["gangSizes"]; ok {
		t.Errorf("zero range written: %s", b)
	}
}
