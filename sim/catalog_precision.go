package sim

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

// String returns "bf16" or "fp8".
func (p Precision) String() string {
	if p == FP8 {
		return "fp8"
	}
	return "bf16"
}
