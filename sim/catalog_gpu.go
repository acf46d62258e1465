package sim

import (
	"fmt"
	"slices"
	"strings"
)

// GPU is one accelerator's datasheet: dense (non-sparse) tensor FLOP/s
// per precision, memory and bandwidths, all in base units. A zero rate
// means the GPU has no tensor cores for that precision.
type GPU struct {
	Name      string
	Arch      string  // architecture generation, e.g. "Hopper"
	BF16FLOPS float64 // dense BF16 FLOP/s, also the FP16 rate
	FP8FLOPS  float64 // dense FP8 FLOP/s; 0 before Hopper and Ada
	FP4FLOPS  float64 // dense FP4 FLOP/s; 0 before Blackwell
	HBMBytes  float64 // device memory, bytes
	HBMBW     float64 // memory bandwidth, bytes/s
	Link      Link    // scale-up interconnect between the GPUs of one server
	LinkBW    float64 // Link bandwidth per GPU per direction, bytes/s
	// LinkPeers is the number of point-to-point links LinkBW is split over
	// in a full mesh (MI300X: 7); 0 when a switch (NVSwitch, a PCIe
	// switch) gives any one peer all of LinkBW.
	LinkPeers int
	Aliases   []string
}

// Link is a kind of scale-up interconnect.
type Link int

const (
	// NVLink connects every GPU of a server through NVSwitches, with
	// peer-to-peer loads and stores: one-shot all-reduces are possible.
	NVLink Link = iota
	// InfinityFabric is AMD's full mesh of point-to-point xGMI links,
	// peer-to-peer capable.
	InfinityFabric
	// PCIe is the host bus: no peer-to-peer all-reduce kernels (vLLM
	// turns its custom all-reduce off on PCIe-only GPUs), so NCCL's
	// reduce-scatter and all-gather.
	PCIe
)

// peerToPeer reports whether kernels can read peers' memory directly,
// which one-shot all-reduces need.
func (l Link) peerToPeer() bool { return l != PCIe }

// String names the interconnect.
func (l Link) String() string {
	switch l {
	case NVLink:
		return "NVLink"
	case InfinityFabric:
		return "Infinity Fabric"
	case PCIe:
		return "PCIe"
	}
	return fmt.Sprintf("Link(%d)", int(l))
}

// GroupBW returns the link bandwidth per GPU per direction that an
// all-reduce among tp GPUs of one server can use: all of LinkBW through a
// switch, or the tp−1 links of a mesh that reach the group's other GPUs,
// LinkBW·(tp−1)/LinkPeers.
func (g GPU) GroupBW(tp int) float64 {
	if g.LinkPeers > 0 {
		return g.LinkBW * float64(min(max(tp-1, 1), g.LinkPeers)) / float64(g.LinkPeers)
	}
	return g.LinkBW
}

// gpus is the accelerator catalog, from the table "Datasheet-level specs" in
// /work/shared/reference/README.md. 80 GB parts are given as 80 GiB because
// that is what CUDA reports (81,559–81,920 MiB) and what vLLM budgets from;
// other memories are the datasheet GB (1e9 B). It is never modified.
var gpus = []GPU{
	// Source: aiconfigurator systems/a100_sxm.yaml; LLMCompass configs/GA100.json. NVLink3 300 GB/s/dir.
	{Name: "A100-80GB", Arch: "Ampere", BF16FLOPS: 312e12, HBMBytes: 80 << 30, HBMBW: 2.039e12, Link: NVLink, LinkBW: 300e9,
		Aliases: []string{"a100", "a100-sxm", "a100-80gb-sxm", "a100-sxm-80gb", "a100-sxm4-80gb"}},
	// Source: aiconfigurator systems/h100_sxm.yaml; inference-sim hardware_config.json. NVLink4 450 GB/s/dir.
	{Name: "H100-SXM", Arch: "Hopper", BF16FLOPS: 989e12, FP8FLOPS: 1979e12, HBMBytes: 80 << 30, HBMBW: 3.35e12, Link: NVLink, LinkBW: 450e9,
		Aliases: []string{"h100", "h100-sxm5", "h100-80gb", "h100-sxm-80gb", "h100-80gb-hbm3"}},
	// Source: aiconfigurator systems/h200_sxm.yaml. NVLink4 450 GB/s/dir.
	{Name: "H200", Arch: "Hopper", BF16FLOPS: 989e12, FP8FLOPS: 1979e12, HBMBytes: 141e9, HBMBW: 4.8e12, Link: NVLink, LinkBW: 450e9,
		Aliases: []string{"h200-sxm", "h200-141gb"}},
	// Source: aiconfigurator systems/b200_sxm.yaml (180 GB HGX part); FP4 9 PFLOP/s dense
	// (NVIDIA HGX B200 datasheet: 144 PFLOP/s FP4 with sparsity for 8 GPUs). NVLink5 900 GB/s/dir.
	{Name: "B200", Arch: "Blackwell", BF16FLOPS: 2250e12, FP8FLOPS: 4500e12, FP4FLOPS: 9000e12, HBMBytes: 180e9, HBMBW: 7.7e12, Link: NVLink, LinkBW: 900e9,
		Aliases: []string{"b200-sxm", "hgx-b200", "dgx-b200"}},
	// Source: aiconfigurator systems/gb200.yaml (the reference README's table): one Blackwell
	// GPU of a GB200 superchip, 186 GB HBM3e at 8 TB/s; NVLink5 900 GB/s/dir through the
	// NVLink switches of an NVL72 rack, which join all 72 GPUs.
	{Name: "GB200", Arch: "Blackwell", BF16FLOPS: 2500e12, FP8FLOPS: 5000e12, FP4FLOPS: 10000e12, HBMBytes: 186e9, HBMBW: 8e12,
		Link: NVLink, LinkBW: 900e9, Aliases: []string{"gb200-nvl72", "gb200-nvl"}},
	// Source: NVIDIA GH200 Grace Hopper Superchip datasheet: the Hopper GPU of an H100 SXM
	// (989 / 1,979 TFLOP/s dense BF16 / FP8) with 96 GB of HBM3 at 4 TB/s or 144 GB of HBM3e
	// at 4.9 TB/s; NVLink4 450 GB/s/dir to other superchips (GH200 NVL2, NVL32).
	{Name: "GH200-96GB", Arch: "Hopper", BF16FLOPS: 989e12, FP8FLOPS: 1979e12, HBMBytes: 96e9, HBMBW: 4e12,
		Link: NVLink, LinkBW: 450e9, Aliases: []string{"gh200", "gh200-96g"}},
	{Name: "GH200-144GB", Arch: "Hopper", BF16FLOPS: 989e12, FP8FLOPS: 1979e12, HBMBytes: 144e9, HBMBW: 4.9e12,
		Link: NVLink, LinkBW: 450e9, Aliases: []string{"gh200-144g", "gh200-hbm3e"}},
	// Source: NVIDIA Ada GPU Architecture whitepaper v2.01, RTX 4090: dense tensor rates with
	// FP32 accumulation, as inference GEMMs use (GeForce runs it at half the FP16-accumulate
	// rate): BF16 165.2, FP8 330.3 TFLOP/s; 24 GB GDDR6X at 1,008 GB/s. No NVLink: PCIe Gen4
	// x16, 32 GB/s/dir. 24 GB taken as 24 GiB, as CUDA reports 24,564 MiB.
	{Name: "RTX-4090", Arch: "Ada", BF16FLOPS: 165.2e12, FP8FLOPS: 330.3e12, HBMBytes: 24 << 30, HBMBW: 1008e9,
		Link: PCIe, LinkBW: 32e9, Aliases: []string{"rtx4090", "4090", "geforce-rtx-4090"}},
	// Source: NVIDIA's RTX PRO 6000 Blackwell announcement (GTC 2025) as reported: GB202,
	// 4,000 AI TOPS (FP4 with 2:4 sparsity), 96 GB GDDR7 on a 512-bit bus at 1,792 GB/s,
	// PCIe Gen5 x16 (64 GB/s/dir), no NVLink. Dense rates are the sparse FP4 figure halved
	// and then halved per wider precision, as Blackwell's tensor cores run (B200: 9,000 /
	// 4,500 / 2,250): FP4 2,000, FP8 1,000, BF16 500 TFLOP/s, with FP32 accumulation at full
	// rate on the professional part. Server, workstation and Max-Q editions share the chip;
	// the Max-Q's 300 W clocks it lower.
	{Name: "RTX-PRO-6000", Arch: "Blackwell", BF16FLOPS: 500e12, FP8FLOPS: 1000e12, FP4FLOPS: 2000e12, HBMBytes: 96e9, HBMBW: 1792e9,
		Link: PCIe, LinkBW: 64e9, Aliases: []string{"rtx-pro-6000-blackwell", "rtx-pro-6000-server", "rtxpro6000", "rtx-6000-pro"}},
	// Source: aiconfigurator systems/l40s.yaml (FP8 733 dense). No NVLink: PCIe Gen4 x16, 32 GB/s/dir.
	{Name: "L40S", Arch: "Ada", BF16FLOPS: 362e12, FP8FLOPS: 733e12, HBMBytes: 48e9, HBMBW: 0.864e12,
		Link: PCIe, LinkBW: 32e9},
	// Source: GenZ Systems/system_configs.py. Infinity Fabric: a full mesh of 7 xGMI links of
	// 128 GB/s bidirectional (AMD quotes 896 GB/s aggregate), 64 GB/s/dir each, 448 GB/s/dir in all.
	{Name: "MI300X", Arch: "CDNA3", BF16FLOPS: 1307.4e12, FP8FLOPS: 2614.9e12, HBMBytes: 192e9, HBMBW: 5.3e12,
		Link: InfinityFabric, LinkBW: 448e9, LinkPeers: 7,
		Aliases: []string{"mi300", "amd-mi300x", "instinct-mi300x"}},
}

// FLOPS returns the dense tensor FLOP/s for matrix products whose weights
// (and activations) are in p, or 0 when the GPU has no tensor cores for
// p. BF16 and FP16 share one rate on every GPU of the catalog; MXFP4
// weights are dequantised and computed at it.
func (g GPU) FLOPS(p Precision) float64 {
	switch p {
	case FP8:
		return g.FP8FLOPS
	case FP4:
		return g.FP4FLOPS
	}
	return g.BF16FLOPS
}

// Supports reports whether the GPU has tensor cores for weights in p.
func (g GPU) Supports(p Precision) bool { return g.FLOPS(p) > 0 }

// precisionError says that g cannot compute with weights in p, which GPUs
// of the catalog can, and what g can.
func (g GPU) precisionError(p Precision) error {
	var with, own []string
	for _, o := range gpus {
		if o.Supports(p) {
			with = append(with, o.Name)
		}
	}
	for _, q := range []Precision{BF16, FP16, FP8, FP4, MXFP4} {
		if g.Supports(q) {
			own = append(own, q.String())
		}
	}
	have := "has"
	if len(with) > 1 {
		have = "have"
	}
	return fmt.Errorf("%s weights need %s tensor cores, which %s (%s) lacks: %s %s them; %s computes in %s",
		p, strings.ToUpper(p.String()), g.Name, g.Arch, strings.Join(with, ", "), have, g.Name, strings.Join(own, ", "))
}

// LookupGPU finds an accelerator by name or alias, case-insensitive
// ("H100" finds H100-SXM). The error lists the catalog.
func LookupGPU(name string) (GPU, error) {
	key := normName(name)
	for _, g := range gpus {
		if normName(g.Name) == key || slices.ContainsFunc(g.Aliases, func(a string) bool { return normName(a) == key }) {
			return g, nil
		}
	}
	names := make([]string, len(gpus))
	for i, g := range gpus {
		names[i] = g.Name
	}
	return GPU{}, fmt.Errorf("unknown gpu %q (known: %s)", name, strings.Join(names, ", "))
}
