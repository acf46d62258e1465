package compare

import (
	"strings"
	"testing"
)

// TestCompareBuiltinEngines: runs of the built-in engine compare by
// model, GPU, TP and engine settings, not by their random loopback
// addresses, and the warnings name what differs.
func TestCompareBuiltinEngines(t *testing.T) {
	t.Parallel()
	const llama = "Llama-3.1-8B@H100-SXMx1"
	tests := []struct {
		reason           string
		bTarget, bEngine string
		cTarget, cEngine string
		want             []string // in the warnings
		wantNot          []string
	}{
		{"one engine on two ports", "http://127.0.0.1:40001", llama, "http://127.0.0.1:40002", llama,
			nil, []string{"targets differ", "engines differ"}},
		{"a flag changed", "http://127.0.0.1:40001", llama, "http://127.0.0.1:40002", llama + "?max-num-seqs=64",
			[]string{"built-in engines differ: max-num-seqs: base default, candidate 64"}, []string{"targets differ"}},
		{"GPU, TP and two flags of surge sim", "sim://" + llama + "?prefix-caching=off", "", "sim://Llama-3.1-8B@H200x2?max-num-seqs=8&prefix-caching=off", "",
			[]string{"gpu: base H100-SXM, candidate H200", "tp: base 1, candidate 2", "max-num-seqs: base default, candidate 8"},
			[]string{"targets differ", "prefix-caching"}},
		{"surge sim against surge run of one engine", "sim://" + llama, "", "http://127.0.0.1:40002", llama,
			[]string{"virtual time for the base and in real time for the candidate"}, []string{"targets differ", "engines differ"}},
		{"one engine per served model", "http://a", "a=" + llama + ",b=" + llama, "http://b", "a=" + llama + ",b=" + llama + "?max-model-len=4096",
			[]string{"b max-model-len: base default, candidate 4096"}, []string{"a max-model-len", "targets differ"}},
		{"outside servers compare by target", "http://h1:8000", "", "http://h2:8000", "",
			[]string{`targets differ: base "http://h1:8000", candidate "http://h2:8000"`}, nil},
		{"an outside server against the built-in engine", "http://h1:8000", "", "http://127.0.0.1:40002", llama,
			[]string{"targets differ"}, nil},
	}
	for _, tt := range tests {
		base, cand := records(synth{seed: 1, n: 30, slow: 1}), records(synth{seed: 2, n: 30, slow: 1})
		base.Header.Target, base.Header.Engine = tt.bTarget, tt.bEngine
		cand.Header.Target, cand.Header.Engine = tt.cTarget, tt.cEngine
		res, err := Compare(base, cand, Options{Resamples: 10})
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(res.Warnings, "\n")
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: warnings lack %q:\n%s", tt.reason, w, all)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(all, w) {
				t.Errorf("%s: warnings say %q:\n%s", tt.reason, w, all)
			}
		}
	}
}
