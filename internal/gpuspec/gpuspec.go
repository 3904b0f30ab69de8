// Package gpuspec is the one table of GPU models the module knows: memory,
// dense BF16 throughput, board power, class, the default speed factor with
// its basis, and the accelerator names open price catalogs use for each.
// provider (KnownAccelerators, KnownGPU, Catalog.UnknownGPUs) and workload
// (DefaultSpeedFactors) both read it, so that a GPU the provider side knows
// is one the workload side can price.
package gpuspec

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

// Table returns a fresh copy of the table, in a fixed order.
func Table() []Spec {
	rows := []Spec{
		{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700, SpeedBasis: basisBF16,
			Aliases: []string{"H100", "H100-SXM", "H100-80GB", "H100-MEGA"}},
		{Model: "H100 PCIe", MemoryGiB: 80, BF16TFLOPS: 756, TDPWatts: 350, SpeedBasis: basisBF16,
			Aliases: []string{"H100-PCIE"}},
		{Model: "H200", MemoryGiB: 141, BF16TFLOPS: 989, TDPWatts: 700, SpeedBasis: basisBF16,
			Aliases: []string{"H200"}},
		{Model: "B200", MemoryGiB: 180, BF16TFLOPS: 2250, TDPWatts: 1000, SpeedBasis: basisBF16,
			Aliases: []string{"B200"}},
		{Model: "A100 40GB", MemoryGiB: 40, BF16TFLOPS: 312, TDPWatts: 400, SpeedBasis: basisBF16,
			Aliases: []string{"A100", "A100-40GB"}},
		{Model: "A100 80GB", MemoryGiB: 80, BF16TFLOPS: 312, TDPWatts: 400, SpeedBasis: basisBF16,
			Aliases: []string{"A100-80GB"}},
		{Model: "V100", MemoryGiB: 16, BF16TFLOPS: 125, TDPWatts: 300, SpeedBasis: basisFP16,
			Aliases: []string{"V100"}},
		{Model: "V100 32GB", MemoryGiB: 32, BF16TFLOPS: 125, TDPWatts: 300, SpeedBasis: basisFP16,
			Aliases: []string{"V100-32GB"}},
		{Model: "L40S", MemoryGiB: 48, BF16TFLOPS: 362, TDPWatts: 350, SpeedBasis: basisBF16,
			Aliases: []string{"L40S"}},
		{Model: "L4", MemoryGiB: 24, BF16TFLOPS: 121, TDPWatts: 72, SpeedBasis: basisBF16,
			Aliases: []string{"L4"}},
		{Model: "A10", MemoryGiB: 24, BF16TFLOPS: 125, TDPWatts: 150, SpeedBasis: basisBF16,
			Aliases: []string{"A10"}},
		{Model: "T4", MemoryGiB: 16, BF16TFLOPS: 65, TDPWatts: 70, SpeedBasis: basisFP16,
			Aliases: []string{"T4"}},
		{Model: "RTX 4090", MemoryGiB: 24, BF16TFLOPS: 165, TDPWatts: 450, Consumer: true, SpeedBasis: basisBF16,
			Aliases: []string{"RTX4090"}},
	}
	for i := range rows {
		rows[i].SpeedFactor = rows[i].BF16TFLOPS / referenceTFLOPS
	}
	return rows
}

// Lookup returns the spec of model (exact name) and whether it is known.
func Lookup(model string) (Spec, bool) {
	for _, s := range Table() {
		if s.Model == model {
			return s, true
		}
	}
	return Spec{}, false
}
