package importers

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetect names formats by their first bytes, and refuses what it
// cannot name with what it saw.
func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason, head string
		want         Format
		err          string
	}{
		{"Azure 2023, CRLF", "TIMESTAMP,ContextTokens,GeneratedTokens\r\n2023-11-16 18:17:03.9799600,4808,10\r\n", FormatAzure, ""},
		{"Azure with a byte-order mark and spaces", "\ufefftimestamp, ContextTokens ,GeneratedTokens\n", FormatAzure, ""},
		{"Vidur, header only", "arrived_at,num_prefill_tokens,num_decode_tokens", FormatVidur, ""},
		{"Vidur with more columns", "arrived_at,num_prefill_tokens,num_decode_tokens,pd_ratio\n", FormatVidur, ""},
		{"Mooncake", `{"timestamp": 0, "input_length": 6758, "output_length": 500, "hash_ids": [0, 1]}` + "\n{", FormatMooncake, ""},
		{"Mooncake cut inside hash_ids", `{"timestamp": 0, "input_length": 6758, "output_length": 500, "hash_ids": [0, 1`, FormatMooncake, ""},
		{"WEKA, keys after nested values", `{"id":"t","models":["a"],"x":{"requests":1},"block_size":64,"requests":[{"t":0`, FormatWEKA, ""},
		{"nested keys do not count", `{"id":"t","x":{"block_size":64,"requests":[]}}`, "", `keys ["id" "x"]: not Mooncake`},
		{"empty object", `{}`, "", "keys []: not Mooncake"},
		{"empty", " \n", "", "empty file"},
		{"flattened WEKA CSV", "trace_id,stream,req_idx,t_s,type,model\n", FormatWEKACSV, ""},
		{"WEKA summary CSV", "trace_id,models,block_size,tool_tokens,system_tokens,n_requests,n_main_requests,n_streams,first_in,last_in,duration_s\n", FormatWEKASummary, ""},
		{"BurstGPT", "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n", FormatBurstGPT, ""},
		{"ShareGPT array, indented", "[\n  {\n    \"id\": \"x\",\n    \"conversations\": [\n      {\"from\": \"human\"", FormatShareGPT, ""},
		{"ShareGPT JSON Lines", `{"conversations":[{"from":"human","value":"hi"}],"id":"y"}`, FormatShareGPT, ""},
		{"an array of numbers", "[1, 2]", "", "does not start with an object"},
		{"ServeGen windows have no header", "0,0.0,,,,\n", FormatServeGen, ""},
		{"ServeGen, a Gamma window", "0,5.26,0.92,Gamma,1.17,0.16\r\n", FormatServeGen, ""},
		{"a ServeGen dataset of length laws", `{"0": {"input_tokens": "{1: 1.0}"}, "21600": {`, "", "a ServeGen client's length laws (chunk-N-dataset.json)"},
		{"six numbers are not a ServeGen window", "1,2,3,4,5,6\n", "", `first line "1,2,3,4,5,6" is not a header surge knows`},
	}
	for _, tt := range tests {
		got, err := Detect([]byte(tt.head))
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: got %q, %v; want an error containing %q", tt.reason, got, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s: got %q, %v; want %q", tt.reason, got, err, tt.want)
		}
	}
}

// TestDetectShared names the format of every shared trace file surge
// imports from its first DetectBytes.
func TestDetectShared(t *testing.T) {
	t.Parallel()
	tests := []struct {
		glob string
		want Format
	}{
		{"azure-llm-2023/*.csv", FormatAzure},
		{"vidur-splitwise/*.csv", FormatVidur},
		{"mooncake/*.jsonl", FormatMooncake},
		{"weka-agentic/*.json", FormatWEKA},
		{"weka-agentic/weka_agentic_requests.csv", FormatWEKACSV},
		{"servegen/language/*/*-trace.csv", FormatServeGen},
	}
	for _, tt := range tests {
		files, _ := filepath.Glob(filepath.Join(tracesDir, tt.glob))
		if len(files) == 0 {
			t.Skipf("no shared traces %s", tt.glob)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(tracesDir, f)
			head := make([]byte, DetectBytes)
			n, _ := io.ReadFull(openShared(t, rel), head)
			if got, err := Detect(head[:n]); got != tt.want {
				t.Errorf("%s: got %q, %v; want %q", rel, got, err, tt.want)
			}
		}
	}
}

// FuzzDetect checks that no input makes Detect panic, and that it names
// a format or says why not.
func FuzzDetect(f *testing.F) {
	f.Add("TIMESTAMP,ContextTokens,GeneratedTokens\r\n")
	f.Add(`{"timestamp": 0, "input_length": 1, "output_length": 2}`)
	f.Add(`{"a":[{"b":{}}],"block_size":1,"requests":[`)
	f.Fuzz(func(t *testing.T, head string) {
		got, err := Detect([]byte(head))
		if (err == nil) == (got == "") {
			t.Fatalf("Detect(%q) = %q, %v: want a format or an error", head, got, err)
		}
	})
}
