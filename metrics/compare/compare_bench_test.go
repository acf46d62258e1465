package compare

import "testing"

// BenchmarkCompare compares two runs of 10,000 requests with the default
// 1,000 resamples: the bootstrap draws 10⁷ values per metric.
func BenchmarkCompare(b *testing.B) {
	base, cand := records(synth{seed: 1, n: 10_000, slow: 1}), records(synth{seed: 2, n: 10_000, slow: 1.1})
	for b.Loop() {
		if _, err := Compare(base, cand, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
