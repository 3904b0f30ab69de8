// Package gpuspec is the one table of GPU models the module knows: memory,
// dense BF16 throughput, board power, class, the default speed factor with
// its basis, and the accelerator names open price catalogs use for each.
// provider (KnownAccelerators, KnownGPU, Catalog.UnknownGPUs) and workload
// (DefaultSpeedFactors) both read it, so that a GPU the provider side knows
// is one the workload side can price.
package gpuspec

import "strings"

// ReferenceModel is the GPU whose speed factor is 1.
const ReferenceModel = "H100 SXM"

// referenceTFLOPS is the dense BF16 tensor throughput of ReferenceModel.
const referenceTFLOPS = 989

// Spec is one GPU model.
type Spec struct {
	// Model is the model name used throughout the module, e.g. "H100 SXM".
	Model string
	// MemoryGiB is the memory per GPU in GiB.
	MemoryGiB float64
	// BF16TFLOPS is the dense (no sparsity) BF16 tensor throughput; tensor
	// FP16 for GPUs without BF16 (V100, T4).
	BF16TFLOPS float64
	// TDPWatts is the board power, of the SXM part where one exists.
	TDPWatts float64
	// Consumer marks desktop cards (otherwise datacenter GPUs).
	Consumer bool
	// SpeedFactor is the default speed relative to ReferenceModel:
	// BF16TFLOPS / 989.
	SpeedFactor float64
	// SpeedBasis says what SpeedFactor rests on.
	SpeedBasis string
	// Aliases are the accelerator names of open price catalogs (the
	// SkyPilot catalog's AcceleratorName) that mean this model.
	Aliases []string
}

// basisBF16 and basisFP16 are the two bases of the table's speed factors.
const (
	basisBF16 = "dense BF16 tensor TFLOPS (vendor datasheet) / 989 of the H100 SXM; compute-bound work only"
	basisFP16 = "dense FP16 tensor TFLOPS (no BF16; vendor datasheet) / 989 of the H100 SXM; compute-bound work only"
)

// row is one entry of the table, free of slices so that the whole table is
// a value Lookup can scan without allocating.
type row struct {
	model                       string
	memoryGiB, tflops, tdpWatts float64
	consumer                    bool
	basis                       string
	aliases                     string // comma-separated
}

// rows returns the table.
func rows() [13]row {
	return [13]row{
		{"H100 SXM", 80, 989, 700, false, basisBF16, "H100,H100-SXM,H100-80GB,H100-MEGA"},
		{"H100 PCIe", 80, 756, 350, false, basisBF16, "H100-PCIE"},
		{"H200", 141, 989, 700, false, basisBF16, "H200"},
		{"B200", 180, 2250, 1000, false, basisBF16, "B200"},
		{"A100 40GB", 40, 312, 400, false, basisBF16, "A100,A100-40GB"},
		{"A100 80GB", 80, 312, 400, false, basisBF16, "A100-80GB"},
		{"V100", 16, 125, 300, false, basisFP16, "V100"},
		{"V100 32GB", 32, 125, 300, false, basisFP16, "V100-32GB"},
		{"L40S", 48, 362, 350, false, basisBF16, "L40S"},
		{"L4", 24, 121, 72, false, basisBF16, "L4"},
		{"A10", 24, 125, 150, false, basisBF16, "A10"},
		{"T4", 16, 65, 70, false, basisFP16, "T4"},
		{"RTX 4090", 24, 165, 450, true, basisBF16, "RTX4090"},
	}
}

func (r row) spec(withAliases bool) Spec {
	s := Spec{Model: r.model, MemoryGiB: r.memoryGiB, BF16TFLOPS: r.tflops, TDPWatts: r.tdpWatts,
		Consumer: r.consumer, SpeedFactor: r.tflops / referenceTFLOPS, SpeedBasis: r.basis}
	if withAliases {
		s.Aliases = strings.Split(r.aliases, ",")
	}
	return s
}

// Table returns a fresh copy of the table, in a fixed order.
func Table() []Spec {
	rs := rows()
	out := make([]Spec, len(rs))
	for i, r := range rs {
		out[i] = r.spec(true)
	}
	return out
}

// Lookup returns the spec of model (exact name), without its Aliases, and
// whether it is known. It does not allocate.
func Lookup(model string) (Spec, bool) {
	for _, r := range rows() {
		if r.model == model {
			return r.spec(false), true
		}
	}
	return Spec{}, false
}
