package trace

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestGapsJSON reads what encoding/json reads, as it reads it: plain
// arrays by hand, anything else (spaces, fractions, big or odd numbers)
// by encoding/json, with its error where it has one.
func TestGapsJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`[]`, `[0]`, `[1,2,3]`, `[-5,0,7]`, `null`, `[ 1, 2 ]`, `[1.0]`, `[1e3]`,
		`[9223372036854775807]`, `[-9223372036854775808]`, `[9223372036854775808]`,
		`[01]`, `[1,]`, `[,1]`, `[-]`, `[+1]`, `["1"]`, `{}`, `[1`, `-0`, `[-0]`,
	} {
		var want []int64
		wantErr := json.Unmarshal([]byte(in), &want)
		var got Gaps
		err := json.Unmarshal([]byte(in), &got)
		if (err != nil) != (wantErr != nil) || err == nil && (!slices.Equal(got, Gaps(want)) || (got == nil) != (want == nil)) {
			t.Errorf("%s: %v (%v); encoding/json reads %v (%v)", in, got, err, want, wantErr)
		}
	}
	for _, g := range []Gaps{nil, {}, {0}, {1, -2, 3_000_000_000}} {
		b, err := json.Marshal(g)
		want, _ := json.Marshal([]int64(g))
		if err != nil || string(b) != string(want) {
			t.Errorf("%v: %s (%v); encoding/json writes %s", g, b, err, want)
		}
	}
}

// FuzzGaps holds the hand reader to encoding/json on any input.
func FuzzGaps(f *testing.F) {
	for _, s := range []string{`[1,2,3]`, `[-1,0]`, `[]`, `null`, `[1.5]`, `[99999999999999999999]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want []int64
		wantErr := json.Unmarshal(data, &want)
		var got Gaps
		err := json.Unmarshal(data, &got)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: error %v, encoding/json's %v", data, err, wantErr)
		}
		if err == nil && !slices.Equal(got, Gaps(want)) {
			t.Fatalf("%q: %v, encoding/json reads %v", data, got, want)
		}
		if err == nil {
			b, _ := json.Marshal(got)
			var back Gaps
			if json.Unmarshal(b, &back) != nil || !slices.Equal(back, got) {
				t.Fatalf("%q: %v writes %s, which reads back as %v", data, got, b, back)
			}
		}
	})
}
