package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"surge/trace"
)

// sharedTraces holds the public traces shared by the team.
const sharedTraces = "../../../shared/traces"

// readImported reads a trace written by surge import.
func readImported(t *testing.T, path string) (trace.Header, []*trace.Session) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var ss []*trace.Session
	for {
		s, err := tr.Read()
		if errors.Is(err, io.EOF) {
			return tr.Header, ss
		}
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
}

// TestImportSharedTraces imports every Azure 2023, Vidur and Mooncake
// file with the format detected: the README's row counts, a client per
// file, and the same requests at the same microseconds from the Azure
// files and their Vidur copies (known answer 1).
func TestImportSharedTraces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		files  []string
		counts []int
	}{
		{[]string{"azure-llm-2023/AzureLLMInferenceTrace_code.csv", "azure-llm-2023/AzureLLMInferenceTrace_conv.csv"}, []int{8819, 19366}},
		{[]string{"vidur-splitwise/splitwise_code.csv", "vidur-splitwise/splitwise_conv.csv"}, []int{8819, 19366}},
		{[]string{"mooncake/conversation_trace.jsonl", "mooncake/synthetic_trace.jsonl"}, []int{12031, 3993}},
	}
	byClient := map[string][]*trace.Session{}
	for i, tt := range tests {
		var args []string
		for _, f := range tt.files {
			args = append(args, filepath.Join(sharedTraces, f))
		}
		if _, err := os.Stat(args[0]); err != nil {
			t.Skipf("no shared traces: %v", err)
		}
		out := filepath.Join(dir, strings.Repeat("t", i+1)+".jsonl")
		if code, _, e := run(t, append([]string{"import", "-o", out}, args...)...); code != exitOK {
			t.Fatalf("import %v: exit %d\n%s", tt.files, code, e)
		}
		h, ss := readImported(t, out)
		for _, s := range ss {
			byClient[s.Client] = append(byClient[s.Client], s)
		}
		for k, f := range tt.files {
			name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
			if h.Clients[k].Name != name || len(byClient[name]) != tt.counts[k] {
				t.Errorf("%s: client %q with %d sessions, want %q with %d", f, h.Clients[k].Name, len(byClient[name]), name, tt.counts[k])
			}
		}
	}
	for _, kind := range []string{"code", "conv"} {
		a, v := byClient["AzureLLMInferenceTrace_"+kind], byClient["splitwise_"+kind]
		for i := range a {
			if a[i].AtUS != v[i].AtUS || !reflect.DeepEqual(a[i].Turns, v[i].Turns) {
				t.Fatalf("%s row %d: Azure %+v, Vidur %+v", kind, i, a[i], v[i])
			}
		}
	}
}

// writeFixture writes an Azure CSV of requests one second apart.
func writeFixture(t *testing.T, dir, name string, rows ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	data := "TIMESTAMP,ContextTokens,GeneratedTokens\n" + strings.Join(rows, "\n") + "\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportReshape checks the replay options on five requests at 0 to
// 4 s of 100 input and 10 output tokens (the second of 900 input).
func TestImportReshape(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	csv := writeFixture(t, dir, "five.csv",
		"2024-05-10 00:00:00+00:00,100,10", "2024-05-10 00:00:01+00:00,900,10", "2024-05-10 00:00:02+00:00,100,10",
		"2024-05-10 00:00:03+00:00,100,10", "2024-05-10 00:00:04+00:00,100,10")
	tests := []struct {
		reason string
		args   []string
		want   []int64 // start offsets, µs
		input  int     // of the second session kept
		stderr string
	}{
		{"as recorded", nil, []int64{0, 1e6, 2e6, 3e6, 4e6}, 900, "5 sessions from 1 azure file over 4s"},
		{"window in seconds, twice as fast", []string{"--window", "1-3", "--speed", "2"}, []int64{0, 500000}, 100, "over 500ms"},
		{"open window as a duration", []string{"--window", "2500ms-"}, []int64{500000, 1500000}, 100, ""},
		{"mean rate 4/s keeps the shape", []string{"--rate", "4"}, []int64{0, 250000, 500000, 750000, 1e6}, 900, ""},
		{"context cap", []string{"--max-context", "500"}, []int64{0, 1e6, 2e6, 3e6, 4e6}, 490, "capped 1 session to --max-context 500 tokens"},
	}
	for i, tt := range tests {
		out := filepath.Join(dir, strings.Repeat("o", i+1)+".jsonl")
		code, _, e := run(t, append([]string{"import", csv, "-o", out, "--model", "m"}, tt.args...)...)
		if code != exitOK || !strings.Contains(e, tt.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want it to say %q", tt.reason, code, e, tt.stderr)
			continue
		}
		h, ss := readImported(t, out)
		var got []int64
		for _, s := range ss {
			got = append(got, s.AtUS)
		}
		if !reflect.DeepEqual(got, tt.want) || ss[1].Turns[0].InputTokens != tt.input || h.Clients[0].Model != "m" || ss[0].Model != "m" {
			t.Errorf("%s: starts %v, second input %d, models %q/%q; want %v, %d, m", tt.reason, got, ss[1].Turns[0].InputTokens, h.Clients[0].Model, ss[0].Model, tt.want, tt.input)
		}
	}
}

// TestImportSample keeps the same sessions every time, and fewer at a
// smaller fraction, a subset of the larger one's.
func TestImportSample(t *testing.T) {
	t.Parallel()
	path := filepath.Join(sharedTraces, "mooncake/synthetic_trace.jsonl")
	if _, err := os.Stat(path); err != nil {
		t.Skip("no shared traces")
	}
	dir := t.TempDir()
	keep := func(name, f string) map[int64]bool {
		out := filepath.Join(dir, name)
		if code, _, e := run(t, "import", path, "--sample", f, "-o", out); code != exitOK {
			t.Fatalf("import --sample %s: %s", f, e)
		}
		_, ss := readImported(t, out)
		kept := map[int64]bool{}
		for _, s := range ss {
			kept[int64(s.Turns[0].InputTokens)<<32|s.AtUS] = true
		}
		return kept
	}
	a, b, small := keep("a", "0.5"), keep("b", "0.5"), keep("c", "0.2")
	if !reflect.DeepEqual(a, b) || len(a) < 1800 || len(a) > 2200 || len(small) >= len(a) {
		t.Errorf("kept %d and %d at 0.5 (same: %v), %d at 0.2; want the same ~2000, then fewer", len(a), len(b), reflect.DeepEqual(a, b), len(small))
	}
}

// TestImportErrors checks usage errors, malformed files named by file
// and line, and that a failed import leaves no trace behind.
func TestImportErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeFixture(t, dir, "good.csv", "2023-11-16 18:00:00,10,1")
	bad := writeFixture(t, dir, "bad.csv", "2023-11-16 18:00:00,10,1", "2023-11-16 18:00:01,ten,1")
	jsonl := filepath.Join(dir, "m.jsonl")
	os.WriteFile(jsonl, []byte(`{"timestamp": 0, "input_length": 5, "output_length": 1, "hash_ids": [1]}`+"\n"), 0o644)
	weka := filepath.Join(dir, "weka.json")
	os.WriteFile(weka, []byte(`{"id":"a","block_size":64,"hash_id_scope":"local","requests":[{"t":0,"type":"n","model":"m","in":100,"out":5,"hash_ids":[1],"think_time":0,"api_time":1}]}`), 0o644)
	tests := []struct {
		reason string
		args   []string
		code   int
		want   string
	}{
		{"bad row", []string{bad}, exitFailure, "bad.csv:3: input tokens \"ten\": want a whole number (--skip-bad skips such rows)"},
		{"unknown format", []string{good, "--format", "parquet"}, exitUsage, `--format "parquet": the formats are auto, azure, vidur, mooncake, weka, weka-csv, weka-summary, sharegpt, burstgpt, servegen, csv, jsonl`},
		{"forced wrong format", []string{good, "--format", "vidur"}, exitFailure, "no column arrived_at"},
		{"mixed formats", []string{good, jsonl}, exitFailure, "is mooncake but"},
		{"speed and rate", []string{good, "--speed", "2", "--rate", "3"}, exitUsage, "--speed and --rate both set the time scale"},
		{"bad window", []string{good, "--window", "5m"}, exitUsage, "want FROM-TO"},
		{"empty window", []string{good, "--window", "5-5"}, exitUsage, "window 5s to 5s"},
		{"bad sample", []string{good, "--sample", "0"}, exitUsage, "--sample 0"},
		{"speed not a number", []string{good, "--speed", "NaN"}, exitUsage, "--speed NaN: want a positive factor"},
		{"window past the end", []string{good, "--window", "1h-"}, exitFailure, "no sessions to write"},
		{"rate of one request", []string{good, "--rate", "3"}, exitFailure, "the 1 sessions kept span no time"},
		{"window on conversations", []string{weka, "--window", "0-1"}, exitUsage, "do not apply to weka"},
	}
	for i, tt := range tests {
		out := filepath.Join(dir, strings.Repeat("x", i+1)+".jsonl")
		code, _, e := run(t, append([]string{"import", "-o", out}, tt.args...)...)
		if code != tt.code || !strings.Contains(e, tt.want) {
			t.Errorf("%s: exit %d, %q; want exit %d and %q", tt.reason, code, e, tt.code, tt.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a failed import left %s behind", tt.reason, out)
		}
	}
}

// TestImportSkipBad skips malformed rows and lists the first on stderr.
func TestImportSkipBad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := writeFixture(t, dir, "bad.csv", "2023-11-16 18:00:00,10,1", "2023-11-16 18:00:01,ten,1", "2023-11-16 17:00:00,10,1", "2023-11-16 18:00:02,10,1")
	out := filepath.Join(dir, "t.jsonl")
	code, _, e := run(t, "import", bad, "--skip-bad", "-o", out)
	for _, want := range []string{"2 sessions", "skipped 2 malformed rows", "bad.csv:3: input tokens", "bad.csv:4: arrival -1h0m0s is before the previous row's (line 2)"} {
		if code != exitOK || !strings.Contains(e, want) {
			t.Errorf("exit %d, stderr %q; want it to say %q", code, e, want)
		}
	}
}

// TestImportWEKACSV imports a sample of the flattened WEKA requests CSV
// (detected by its header) as closed-loop conversations, capped to a
// 128K context.
func TestImportWEKACSV(t *testing.T) {
	t.Parallel()
	path := filepath.Join(sharedTraces, "weka-agentic/weka_agentic_requests.csv")
	if _, err := os.Stat(path); err != nil {
		t.Skip("no shared traces")
	}
	out := filepath.Join(t.TempDir(), "w.jsonl")
	code, _, e := run(t, "import", path, "--sample", "0.05", "--max-context", "131072", "--concurrency", "3", "-o", out)
	if code != exitOK || !strings.Contains(e, "from 1 weka-csv file") || !strings.Contains(e, "to --max-context 131072 tokens") {
		t.Fatalf("exit %d, stderr %q", code, e)
	}
	h, ss := readImported(t, out)
	// 710 conversations sampled at 5%: Binomial σ ≈ 5.8, so 35.5 ± 20.
	if len(ss) < 15 || len(ss) > 56 || h.Clients[0].Name != "weka" || h.Clients[0].Concurrency != 3 {
		t.Errorf("%d sessions, clients %+v; want about 35 of client weka, 3 in flight", len(ss), h.Clients)
	}
	for _, s := range ss {
		for k, tu := range s.Turns {
			if tu.InputTokens+tu.OutputTokens > 131072 || s.AtUS != 0 {
				t.Fatalf("session %d turn %d: %d+%d tokens at %dus", s.Index, k, tu.InputTokens, tu.OutputTokens, s.AtUS)
			}
		}
	}
}
