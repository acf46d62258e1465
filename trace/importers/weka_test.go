package importers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wekaFiles lists the published WEKA conversation files.
func wekaFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../../../shared/traces/weka-agentic/trace_*.json")
	if err != nil || len(files) == 0 {
		t.Skipf("no WEKA traces: %v", err)
	}
	return files
}

// TestWEKAFiles imports every published conversation and checks it
// against the file's own totals: one turn per request, the input and
// output token sums of the file (outputs of 0 asked as 1), think times as
// waits, and hash ids as content blocks scoped to the conversation.
func TestWEKAFiles(t *testing.T) {
	t.Parallel()
	for i, f := range wekaFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Requests []struct {
				In, Out int
				Think   float64  `json:"think_time"`
				HashIDs []uint64 `json:"hash_ids"`
			} `json:"requests"`
			Totals struct {
				Parent struct{ Input, Output int } `json:"parent_tokens"`
			} `json:"totals"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		s, err := WEKA(strings.NewReader(string(data)), "weka", i, WEKAOptions{Speed: 10})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(s.Turns) != len(raw.Requests) {
			t.Fatalf("%s: %d turns for %d requests", f, len(s.Turns), len(raw.Requests))
		}
		in, out := 0, 0
		for k, tu := range s.Turns {
			q := raw.Requests[k]
			in += tu.InputTokens
			out += q.Out
			if tu.OutputTokens != max(q.Out, 1) || len(tu.Blocks) != len(q.HashIDs) || tu.BlockTokens != 64 {
				t.Fatalf("%s turn %d: %+v for request %+v", f, k, tu, q)
			}
			if k > 0 && (len(tu.After) != 1 || tu.After[0] != k-1 || tu.WaitUS != int64(q.Think*1e5+0.5)) {
				t.Fatalf("%s turn %d: after %v, wait %dus; want after the previous call, think %gs / 10", f, k, tu.After, tu.WaitUS, q.Think)
			}
			if len(tu.Blocks) > 0 && tu.Blocks[0]>>40 != uint64(i+1) {
				t.Fatalf("%s turn %d: block id %x not scoped to conversation %d", f, k, tu.Blocks[0], i)
			}
		}
		if in != raw.Totals.Parent.Input || out != raw.Totals.Parent.Output {
			t.Errorf("%s: %d input and %d output tokens, the file's totals say %d and %d", f, in, out, raw.Totals.Parent.Input, raw.Totals.Parent.Output)
		}
	}
}

// TestWEKAErrors checks that malformed conversations are refused with the
// request at fault named.
func TestWEKAErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason, data, want string
	}{
		{"not JSON", `{"requests": [`, "weka conversation:"},
		{"no requests", `{"id":"a","block_size":64,"requests":[]}`, "no requests"},
		{"no block size", `{"id":"a","requests":[{"in":5,"out":1}]}`, "block_size 0"},
		{"global scope", `{"id":"a","block_size":64,"hash_id_scope":"global","requests":[{"in":5,"out":1}]}`, "only local"},
		{"missing out", `{"id":"a","block_size":64,"requests":[{"in":5}]}`, "requests[0]: missing in or out"},
		{"ids past the input", `{"id":"a","block_size":64,"requests":[{"in":5,"out":1},{"in":100,"out":1,"hash_ids":[1,2]}]}`, "requests[1]: 2 hash ids of 64 tokens cover more than its 100 input tokens"},
		{"negative think", `{"id":"a","block_size":64,"requests":[{"in":5,"out":1,"think_time":-1}]}`, "requests[0]: think_time -1"},
		{"sub-agent", `{"id":"a","block_size":64,"requests":[{"in":5,"out":1,"subagent":{"requests":[]}}]}`, "requests[0]: sub-agent entries are not imported yet"},
	}
	for _, tt := range tests {
		_, err := WEKA(strings.NewReader(tt.data), "w", 0, WEKAOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.reason, err, tt.want)
		}
	}
}

// FuzzWEKA checks that no input makes the importer panic, and that what
// it accepts is a valid session.
func FuzzWEKA(f *testing.F) {
	f.Add(`{"id":"a","block_size":64,"requests":[{"t":0,"in":130,"out":2,"hash_ids":[1,2]},{"t":5,"in":200,"out":0,"hash_ids":[1,2,3],"think_time":3}]}`)
	f.Fuzz(func(t *testing.T, data string) {
		s, err := WEKA(strings.NewReader(data), "w", 3, WEKAOptions{Speed: 2})
		if err == nil {
			if verr := s.Validate(); verr != nil {
				t.Fatalf("accepted an invalid session: %v", verr)
			}
		}
	})
}
