package sim

import (
	"fmt"
	"strings"
)

// Precision is the numeric format of weights or of the KV cache. The zero
// value is BF16.
type Precision int

const (
	// BF16 stores 2 bytes per value and computes on the BF16 tensor-core rate.
	BF16 Precision = iota
	// FP16 stores 2 bytes per value; every GPU of the catalog has the same
	// dense FP16 and BF16 tensor rate.
	FP16
	// FP8 stores 1 byte per value (E4M3, or E5M2 for a KV cache); FP8
	// weights compute on the FP8 tensor-core rate (W8A8, as vLLM's fp8
	// quantization and TensorRT-LLM do).
	FP8
	// FP4 is NVFP4: 4-bit E2M1 values in blocks of 16 sharing one FP8
	// (E4M3) scale, 4.5 bits a value (NVIDIA, "Introducing NVFP4 for
	// efficient and accurate low-precision inference", 2025). FP4 weights
	// compute on the FP4 tensor-core rate (W4A4), which only Blackwell has.
	FP4
	// MXFP4 is the OCP microscaling format gpt-oss ships its experts in:
	// 4-bit E2M1 values in blocks of 32 sharing one 8-bit power-of-two
	// (E8M0) scale, 4.25 bits a value (OCP Microscaling Formats (MX)
	// Specification v1.0, 2023; OpenAI, gpt-oss model card, 2025). It
	// quantises a mixture-of-experts model's routed experts only, the
	// rest staying in BF16 (vLLM's mxfp4 quantization), and is weight-only:
	// the kernels dequantise to BF16 and compute at its rate on every GPU
	// (vLLM's Triton and Marlin MXFP4 MoE kernels on Hopper and Ampere).
	MXFP4
)

// precisionNames are the names ParsePrecision reads, canonical first.
var precisionNames = [...][]string{
	BF16:  {"bf16", "bfloat16"},
	FP16:  {"fp16", "float16", "half"},
	FP8:   {"fp8", "fp8_e4m3", "fp8_e5m2", "e4m3", "e5m2"},
	FP4:   {"fp4", "nvfp4"},
	MXFP4: {"mxfp4"},
}

// ParsePrecision reads a precision by name, case-insensitive: bf16
// (bfloat16), fp16 (float16, half), fp8 (fp8_e4m3, fp8_e5m2) or fp4
// (nvfp4) or mxfp4. The error lists the names.
func ParsePrecision(name string) (Precision, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for p, names := range precisionNames {
		for _, n := range names {
			if n == key {
				return Precision(p), nil
			}
		}
	}
	return BF16, fmt.Errorf("unknown precision %q (want bf16, fp16, fp8, fp4 or mxfp4)", name)
}

// Bytes returns the storage size of one value in bytes, scales included
// (FP4: half a byte plus one 1-byte scale per 16 values; MXFP4: per 32).
func (p Precision) Bytes() float64 {
	switch p {
	case FP8:
		return 1
	case FP4:
		return 0.5 + 1.0/16
	case MXFP4:
		return 0.5 + 1.0/32
	}
	return 2
}

// Activations returns the precision activations, and the layers a
// quantised checkpoint leaves unquantised, are kept in: FP16 for FP16
// weights, BF16 otherwise. It is also what vLLM's --kv-cache-dtype auto
// stores the KV cache in.
func (p Precision) Activations() Precision {
	if p == FP16 {
		return FP16
	}
	return BF16
}

// ExpertsOnly reports whether weights in p are only a mixture-of-experts
// model's routed experts, the other layers staying in Activations().
func (p Precision) ExpertsOnly() bool { return p == MXFP4 }

// String returns the canonical name: "bf16", "fp16", "fp8", "fp4" or
// "mxfp4".
func (p Precision) String() string {
	if p >= BF16 && int(p) < len(precisionNames) {
		return precisionNames[p][0]
	}
	return fmt.Sprintf("Precision(%d)", int(p))
}
