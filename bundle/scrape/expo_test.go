package scrape

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// fixture parses testdata/name with keep and returns its samples.
func fixture(t *testing.T, name string, keep ...string) []Sample {
	t.Helper()
	body, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(body, "text/plain; version=0.0.4; charset=utf-8", keep)
	if err != nil {
		t.Fatalf("parsing %s: %v", name, err)
	}
	return s
}

// familyNames returns the distinct sample names in order.
func familyNames(s []Sample) []string {
	var out []string
	for _, smp := range s {
		if len(out) == 0 || out[len(out)-1] != smp.Name {
			out = append(out, smp.Name)
		}
	}
	return out
}

func TestParseFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		keep   []string
		want   []string // kept family names, sorted
		reason string
	}{
		{"vllm.txt", nil, []string{
			"vllm:e2e_request_latency_seconds", "vllm:generation_tokens_total", "vllm:inter_token_latency_seconds",
			"vllm:kv_cache_usage_perc", "vllm:num_preemptions_total", "vllm:num_requests_running",
			"vllm:num_requests_waiting", "vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total",
			"vllm:prompt_tokens_total", "vllm:request_queue_time_seconds", "vllm:request_success_total",
			"vllm:time_per_output_token_seconds", "vllm:time_to_first_token_seconds",
		}, "known vLLM families only: no _created gauges, no iteration_tokens_total histogram, no process/python series"},
		{"vllm.txt", []string{"process_", "vllm:prompt_tokens_created"}, []string{
			"process_resident_memory_bytes",
			"vllm:e2e_request_latency_seconds", "vllm:generation_tokens_total", "vllm:inter_token_latency_seconds",
			"vllm:kv_cache_usage_perc", "vllm:num_preemptions_total", "vllm:num_requests_running",
			"vllm:num_requests_waiting", "vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total",
			"vllm:prompt_tokens_created", "vllm:prompt_tokens_total", "vllm:request_queue_time_seconds", "vllm:request_success_total",
			"vllm:time_per_output_token_seconds", "vllm:time_to_first_token_seconds",
		}, "a prefix keeps a family; a _created gauge is kept only by its exact name"},
		{"vllm.txt", []string{"vllm:"}, nil, "a vLLM-wide prefix (checked below: adds cache_config_info and iteration_tokens, still no _created)"},
		{"sglang.txt", nil, []string{
			"sglang:cache_hit_rate", "sglang:cached_tokens_total", "sglang:e2e_request_latency_seconds",
			"sglang:generation_tokens_total", "sglang:inter_token_latency_seconds", "sglang:num_queue_reqs",
			"sglang:num_retracted_requests_total", "sglang:num_running_reqs", "sglang:prompt_tokens_total",
			"sglang:queue_time_seconds", "sglang:time_to_first_token_seconds", "sglang:token_usage",
		}, "known SGLang families, from multiprocess exposition (_sum before buckets)"},
	}
	for _, tt := range tests {
		got := familyNames(fixture(t, tt.file, tt.keep...))
		if tt.want == nil {
			if !slices.Contains(got, "vllm:cache_config_info") || !slices.Contains(got, "vllm:iteration_tokens_total") ||
				slices.ContainsFunc(got, func(n string) bool { return strings.HasSuffix(n, "_created") }) {
				t.Errorf("%s keep %v: got %v (%s)", tt.file, tt.keep, got, tt.reason)
			}
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s keep %v:\n got %v\nwant %v\n(%s)", tt.file, tt.keep, got, tt.want, tt.reason)
		}
	}
}

// TestParseShapes checks the converted samples: labels, types, values,
// histogram buckets ending +Inf and consistent with the count.
func TestParseShapes(t *testing.T) {
	t.Parallel()
	s := fixture(t, "vllm.txt")
	var ttft []Sample
	for _, smp := range s {
		if smp.Name == "vllm:time_to_first_token_seconds" {
			ttft = append(ttft, smp)
		}
		if smp.Name == "vllm:num_requests_running" && smp.Labels["engine"] == "0" {
			if smp.Type != "gauge" || smp.Value == nil || *smp.Value != 14 || smp.Labels["model_name"] != "Qwen/Qwen3-8B" {
				t.Errorf("running engine 0 = %+v, want gauge 14 with model_name", smp)
			}
		}
		if smp.Name == "vllm:prefix_cache_hits_total" && (smp.Type != "counter" || smp.Value == nil) {
			t.Errorf("prefix hits = %+v, want a counter value", smp)
		}
	}
	if len(ttft) != 2 || ttft[0].Labels["engine"] != "0" || ttft[1].Labels["engine"] != "1" {
		t.Fatalf("TTFT samples %+v, want engines 0 and 1 in order", ttft)
	}
	for _, smp := range ttft {
		h := smp.Histogram
		if smp.Type != "histogram" || h == nil || len(h.LE) != 23 || len(h.Cum) != 23 {
			t.Fatalf("TTFT %+v: want a histogram of vLLM's 22 buckets + Inf", smp)
		}
		if !math.IsInf(float64(h.LE[22]), 1) || h.Cum[22] != h.Count {
			t.Errorf("TTFT last bucket %v/%v, count %v: want +Inf holding the count", h.LE[22], h.Cum[22], h.Count)
		}
		for i := 1; i < len(h.Cum); i++ {
			if h.Cum[i] < h.Cum[i-1] || h.LE[i] <= h.LE[i-1] {
				t.Errorf("TTFT bucket %d not ascending: le %v cum %v", i, h.LE, h.Cum)
			}
		}
	}

	sg := fixture(t, "sglang.txt")
	for _, smp := range sg {
		if smp.Name == "sglang:queue_time_seconds" {
			h := smp.Histogram
			if h == nil || h.LE[0] != 0 || h.Cum[0] != 900 || h.Count != 4084 || smp.Labels["tp_rank"] != "0" {
				t.Errorf("SGLang queue time %+v: want first bucket le=0 with 900, count 4084, tp_rank label", smp)
			}
		}
	}
}

func TestParseEdges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ctype, body string
		wantErr           bool
		want              string // name=value of the first kept sample
		reason            string
	}{
		{"no trailing newline", "text/plain", "vllm:num_requests_running 3", false, "vllm:num_requests_running=3",
			"a body cut before its last newline still parses"},
		{"untyped", "", "# comment\nvllm:num_requests_waiting{model_name=\"m\"} 2 1700000000000\n", false, "vllm:num_requests_waiting=2",
			"no TYPE line: untyped, with a millisecond timestamp"},
		{"NaN value", "", "vllm:kv_cache_usage_perc NaN\n", false, "vllm:kv_cache_usage_perc=NaN", "NaN is a value"},
		{"garbage", "text/plain", "<html>oops</html>\n", true, "", "HTML is not an exposition"},
		{"bad value", "", "vllm:num_requests_running{a=\"b\"} many\n", true, "", "a non-numeric value"},
		{"empty", "", "", false, "", "an empty body is an empty scrape"},
		{"openmetrics counter", "application/openmetrics-text; version=1.0.0; charset=utf-8",
			"# TYPE vllm:prompt_tokens counter\n# HELP vllm:prompt_tokens Prefill.\n# UNIT vllm:prompt_tokens tokens\n" +
				"vllm:prompt_tokens_total{model_name=\"m\"} 17 1700000000.5 # {trace_id=\"a # b\"} 1\n" +
				"vllm:prompt_tokens_created{model_name=\"m\"} 1.7e9\n# EOF\n",
			false, "vllm:prompt_tokens_total=17", "family renamed to _total; exemplar (with # in a label) and float timestamp cut"},
		{"openmetrics by EOF", "", "# TYPE sglang:token_usage gauge\nsglang:token_usage{le=\"}\"} 0.5\n# TYPE x info\nx_info{v=\"1\"} 1\n# EOF",
			false, "sglang:token_usage=0.5", "detected by its # EOF; a } inside a label value; info becomes untyped"},
	}
	for _, tt := range tests {
		s, err := Parse([]byte(tt.body), tt.ctype, nil)
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: error %v, want error %v (%s)", tt.name, err, tt.wantErr, tt.reason)
			continue
		}
		got := ""
		if len(s) > 0 {
			v, _ := (*s[0].Value).MarshalJSON()
			got = s[0].Name + "=" + strings.Trim(string(v), `"`)
		}
		if !tt.wantErr && got != tt.want {
			t.Errorf("%s: got %q, want %q (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

func TestDefaultURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ target, want, reason string }{
		{"http://127.0.0.1:8000", "http://127.0.0.1:8000/metrics", "bare host"},
		{"http://h:8000/v1/", "http://h:8000/metrics", "the OpenAI base path is not where /metrics lives"},
		{"https://u:p@h/v1?x=1", "https://u:p@h/metrics", "query dropped; credentials kept for the request (redacted only in the file)"},
	}
	for _, tt := range tests {
		if got := DefaultURL(tt.target); got != tt.want {
			t.Errorf("DefaultURL(%q) = %q, want %q (%s)", tt.target, got, tt.want, tt.reason)
		}
	}
}

// FuzzParse checks that no body panics the parser and that kept samples
// come out sorted with exactly one payload each.
func FuzzParse(f *testing.F) {
	f.Add([]byte(vllmText(3)), "text/plain; version=0.0.4")
	f.Add([]byte("# TYPE vllm:prompt_tokens counter\nvllm:prompt_tokens_total 1 # {a=\"b\"} 2\n# EOF\n"), "application/openmetrics-text")
	f.Fuzz(func(t *testing.T, body []byte, ctype string) {
		s, err := Parse(body, ctype, []string{""})
		if err != nil {
			return
		}
		for i, smp := range s {
			if i > 0 && compareSamples(s[i-1], smp) > 0 {
				t.Fatalf("samples out of order at %d", i)
			}
			if (smp.Value != nil) == (smp.Histogram != nil || smp.Summary != nil) {
				t.Fatalf("sample %+v: want exactly one payload", smp)
			}
		}
		if sc := (Scrape{Samples: s}); sc.check() != nil {
			t.Fatalf("parsed scrape fails Read's check: %v", sc.check())
		}
	})
}
