package trace

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRecordServerFieldsJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rec    Record
		want   []string
		absent []string
		reason string
	}{
		{Record{CachedTokens: 48, ServerQueueUS: 120, ServerTTFTUS: 12_500, ServerE2EUS: 340_750},
			[]string{`"cached_tokens":48`, `"server_queue_us":120`, `"server_ttft_us":12500`, `"server_e2e_us":340750`}, nil,
			"server-reported fields under their documented names"},
		{Record{}, nil, []string{"cached_tokens", "server_queue_us", "server_ttft_us", "server_e2e_us"},
			"absent server fields are omitted"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(&tt.rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: %s lacks %s", tt.reason, b, w)
			}
		}
		for _, a := range tt.absent {
			if strings.Contains(string(b), a) {
				t.Errorf("%s: %s has %s", tt.reason, b, a)
			}
		}
	}
}
