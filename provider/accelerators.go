package provider

import (
	"slices"

	"github.com/gputco/gputco/internal/gpuspec"
)

// KnownGPUs returns the GPU models the module knows, in a fixed order: the
// same table gives workload.DefaultSpeedFactors its models, so an offer of
// a known GPU can be priced for a workload without a model list of its own.
// Memory is in GiB, BF16TFLOPS is dense (no sparsity) tensor throughput —
// tensor FP16 for the V100 and T4, which have no BF16 — and TDPWatts is the
// board power of the SXM part where one exists. Figures are the vendors'
// datasheets.
func KnownGPUs() []GPU {
	tab := gpuspec.Table()
	out := make([]GPU, len(tab))
	for i, s := range tab {
		out[i] = gpuOf(s)
	}
	return out
}

// KnownGPU returns the known specs of model (see KnownGPUs) and whether the
// model is known.
func KnownGPU(model string) (GPU, bool) {
	s, ok := gpuspec.Lookup(model)
	if !ok {
		return GPU{}, false
	}
	return gpuOf(s), true
}

func gpuOf(s gpuspec.Spec) GPU {
	g := GPU{Model: s.Model, MemoryGiB: s.MemoryGiB, BF16TFLOPS: s.BF16TFLOPS, TDPWatts: s.TDPWatts, Class: Datacenter}
	if s.Consumer {
		g.Class = Consumer
	}
	return g
}

// KnownAccelerators returns a fresh map from the accelerator names of open
// price catalogs (the SkyPilot catalog's AcceleratorName) to the specs of
// KnownGPUs. "H100" is the SXM part (AWS p5, GCP A3, Lambda 8×); a catalog
// that lists PCIe cards under "H100" needs its own table. The caller may
// modify the map.
func KnownAccelerators() map[string]GPU {
	m := make(map[string]GPU)
	for _, s := range gpuspec.Table() {
		for _, a := range s.Aliases {
			m[a] = gpuOf(s)
		}
	}
	return m
}

// UnknownGPUs returns, sorted and without repeats, the GPU models of c's
// offers that KnownGPUs does not list. Such offers are valid, but a workload
// can use them only when it names the model with a speed factor of its own
// (workload.Requirements.Models); callers that load a catalog should report
// them there rather than meet them as incompatibilities at evaluation.
func (c Catalog) UnknownGPUs() []string {
	var out []string
	for _, o := range c.Offers {
		if _, ok := gpuspec.Lookup(o.GPU.Model); !ok && !slices.Contains(out, o.GPU.Model) {
			out = append(out, o.GPU.Model)
		}
	}
	slices.Sort(out)
	return out
}
