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
	// FP8 stores 1 byte per value (E4M3); FP8 weights compute on the FP8
	// tensor-core rate where the GPU has one.
	FP8
)

// Bytes returns the storage size of one value in bytes.
func (p Precision) Bytes() float64 {
	if p == FP8 {
		return 1
	}
	return 2
}

// String returns "bf16" or "fp8"; ParsePrecision reads it back.
func (p Precision) String() string {
	if p == FP8 {
		return "fp8"
	}
	return "bf16"
}

// ParsePrecision reads a precision name, case-insensitive: bf16 (also fp16,
// "auto") or fp8 (also fp8_e4m3).
func ParsePrecision(s string) (Precision, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "bf16", "fp16", "auto", "":
		return BF16, nil
	case "fp8", "fp8_e4m3", "e4m3":
		return FP8, nil
	}
	return BF16, fmt.Errorf("unknown precision %q (want bf16 or fp8)", s)
}
