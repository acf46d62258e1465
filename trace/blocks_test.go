package trace

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestBlocksJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		b      Blocks
		want   string
	}{
		{"consecutive ids are one run", Blocks{1, 2, 3}, `[[1,3]]`},
		{"a gap starts a run", Blocks{1, 2, 5000, 5001, 7}, `[[1,2],[5000,2],[7,1]]`},
		{"a repeated id is a run of its own", Blocks{4, 4}, `[[4,1],[4,1]]`},
		{"none", Blocks{}, `[]`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.b)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.reason, got, err, tt.want)
		}
		var back Blocks
		if err := json.Unmarshal(got, &back); err != nil || !slices.Equal(back, tt.b) {
			t.Errorf("%s: read back %v, %v", tt.reason, back, err)
		}
	}
	var plain Blocks
	if err := json.Unmarshal([]byte(`[9, 10, [20, 2]]`), &plain); err != nil || !slices.Equal(plain, Blocks{9, 10, 20, 21}) {
		t.Errorf("plain ids mixed with runs: %v, %v", plain, err)
	}
	for _, bad := range []string{`[[1]]`, `[[1, 0]]`, `[[1, 99999999999]]`, `["x"]`, `{}`, `[[18446744073709551615, 2]]`} {
		var b Blocks
		if err := json.Unmarshal([]byte(bad), &b); err == nil || !strings.Contains(err.Error(), "blocks") {
			t.Errorf("%s: accepted (%v)", bad, err)
		}
	}
}
