package provider

// KnownAccelerators returns a fresh map from the accelerator names of open
// price catalogs (the SkyPilot catalog's AcceleratorName) to GPU specs with
// the model names the project uses. Memory is in GiB, BF16TFLOPS is dense
// (no sparsity) tensor throughput — tensor FP16 for the V100 and T4, which
// have no BF16 — and TDPWatts is the board power of the SXM part where one
// exists. Figures are the vendors' datasheets. "H100" is the SXM part (AWS
// p5, GCP A3, Lambda 8×); a catalog that lists PCIe cards under "H100" needs
// its own table. The caller may modify the map.
func KnownAccelerators() map[string]GPU {
	h100 := GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700, Class: Datacenter}
	a100 := GPU{Model: "A100 40GB", MemoryGiB: 40, BF16TFLOPS: 312, TDPWatts: 400, Class: Datacenter}
	v100 := GPU{Model: "V100", MemoryGiB: 16, BF16TFLOPS: 125, TDPWatts: 300, Class: Datacenter}
	return map[string]GPU{
		"H100":      h100,
		"H100-SXM":  h100,
		"H100-80GB": h100,
		"H100-MEGA": h100,
		"H100-PCIE": {Model: "H100 PCIe", MemoryGiB: 80, BF16TFLOPS: 756, TDPWatts: 350, Class: Datacenter},
		"H200":      {Model: "H200", MemoryGiB: 141, BF16TFLOPS: 989, TDPWatts: 700, Class: Datacenter},
		"B200":      {Model: "B200", MemoryGiB: 180, BF16TFLOPS: 2250, TDPWatts: 1000, Class: Datacenter},
		"A100":      a100,
		"A100-40GB": a100,
		"A100-80GB": {Model: "A100 80GB", MemoryGiB: 80, BF16TFLOPS: 312, TDPWatts: 400, Class: Datacenter},
		"V100":      v100,
		"V100-32GB": {Model: "V100 32GB", MemoryGiB: 32, BF16TFLOPS: 125, TDPWatts: 300, Class: Datacenter},
		"L40S":      {Model: "L40S", MemoryGiB: 48, BF16TFLOPS: 362, TDPWatts: 350, Class: Datacenter},
		"L4":        {Model: "L4", MemoryGiB: 24, BF16TFLOPS: 121, TDPWatts: 72, Class: Datacenter},
		"A10":       {Model: "A10", MemoryGiB: 24, BF16TFLOPS: 125, TDPWatts: 150, Class: Datacenter},
		"T4":        {Model: "T4", MemoryGiB: 16, BF16TFLOPS: 65, TDPWatts: 70, Class: Datacenter},
		"RTX4090":   {Model: "RTX 4090", MemoryGiB: 24, BF16TFLOPS: 165, TDPWatts: 450, Class: Consumer},
	}
}
