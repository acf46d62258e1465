package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"surge/bundle"
)

// engineMean is the engine table's row of the server's mean TTFT, 20 ms.
var engineMean = regexp.MustCompile(`(?m)^\s+ttft\s+vllm:time_to_first_token_seconds\s+\d+\s+mean\s+20\.0\s`)

// llamaCppMetrics is what llama-server --metrics answers: no KV-cache
// gauge and no latency histograms.
const llamaCppMetrics = `# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.
# TYPE llamacpp:prompt_tokens_total counter
llamacpp:prompt_tokens_total 2400
# HELP llamacpp:prompt_seconds_total Prompt process time
# TYPE llamacpp:prompt_seconds_total counter
llamacpp:prompt_seconds_total 1.5
# HELP llamacpp:tokens_predicted_total Number of generation tokens processed.
# TYPE llamacpp:tokens_predicted_total counter
llamacpp:tokens_predicted_total 384
# HELP llamacpp:tokens_predicted_seconds_total Predict process time
# TYPE llamacpp:tokens_predicted_seconds_total counter
llamacpp:tokens_predicted_seconds_total 3.2
# HELP llamacpp:n_decode_total Total number of llama_decode() calls
# TYPE llamacpp:n_decode_total counter
llamacpp:n_decode_total 200
# HELP llamacpp:n_tokens_max Largest observed n_tokens.
# TYPE llamacpp:n_tokens_max counter
llamacpp:n_tokens_max 210
# HELP llamacpp:prompt_tokens_seconds Average prompt throughput in tokens/s.
# TYPE llamacpp:prompt_tokens_seconds gauge
llamacpp:prompt_tokens_seconds 1600
# HELP llamacpp:predicted_tokens_seconds Average generation throughput in tokens/s.
# TYPE llamacpp:predicted_tokens_seconds gauge
llamacpp:predicted_tokens_seconds 120
# HELP llamacpp:requests_processing Number of requests processing.
# TYPE llamacpp:requests_processing gauge
llamacpp:requests_processing 2
# HELP llamacpp:requests_deferred Number of requests deferred.
# TYPE llamacpp:requests_deferred gauge
llamacpp:requests_deferred 0
# HELP llamacpp:n_busy_slots_per_decode Average number of busy slots per llama_decode() call
# TYPE llamacpp:n_busy_slots_per_decode gauge
llamacpp:n_busy_slots_per_decode 1.9
`

// vllmNaNMetrics is vLLM's state and a TTFT histogram with NaN values
// where a gauge or a sum had none.
const vllmNaNMetrics = `# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{model_name="m"} NaN
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{model_name="m"} 1
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{model_name="m"} NaN
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{le="0.01",model_name="m"} 0
vllm:time_to_first_token_seconds_bucket{le="0.1",model_name="m"} 3
vllm:time_to_first_token_seconds_bucket{le="+Inf",model_name="m"} 3
vllm:time_to_first_token_seconds_sum{model_name="m"} NaN
vllm:time_to_first_token_seconds_count{model_name="m"} 3
`

// TestRunBundleWhateverTheMetrics runs against servers whose /metrics
// answers 200 without the series the server charts draw (llama.cpp's
// names, an empty body, NaN samples): the run exits 0, its bundle holds
// every report file and a manifest, and surge inspect checks it.
func TestRunBundleWhateverTheMetrics(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{"llama.cpp": llamaCppMetrics, "empty": "", "vLLM NaN": vllmNaNMetrics} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mux := http.NewServeMux()
			mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain; version=0.0.4")
				_, _ = w.Write([]byte(body))
			})
			mux.Handle("/", fakeServer{ttft: 5 * time.Millisecond, itl: time.Millisecond, tokens: 8})
			srv := httptest.NewServer(mux)
			defer srv.Close()
			dir := filepath.Join(t.TempDir(), "run")
			code, out, errOut := run(t, "run", "testdata/run.yaml", "--target", srv.URL, "-o", dir, "--scrape-interval", "100ms")
			if code != exitOK {
				t.Fatalf("run exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			for _, f := range []string{"report.txt", "report.json", "report.html", "manifest.json", bundle.ServerMetricsFile} {
				if info, err := os.Stat(filepath.Join(dir, f)); err != nil || info.Size() == 0 {
					t.Errorf("%s: %v, want a file that is not empty", f, err)
				}
			}
			html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
			if strings.Contains(string(html), "NaN") {
				t.Errorf("report.html shows NaN")
			}
			if code, out, errOut := run(t, "inspect", dir); code != exitOK {
				t.Errorf("inspect exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
		})
	}
}

// TestInspectDirWithoutManifest: surge inspect on a directory that is not
// a bundle says what it is, not "is a directory".
func TestInspectDirWithoutManifest(t *testing.T) {
	t.Parallel()
	run1 := t.TempDir()
	if err := os.WriteFile(filepath.Join(run1, "records.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{
		run1:        "is a run directory without manifest.json",
		t.TempDir(): "is a directory, neither a trace nor a bundle",
	} {
		code, _, errOut := run(t, "inspect", dir)
		if code == exitOK || !strings.Contains(errOut, want) || strings.Contains(errOut, "read "+dir) {
			t.Errorf("inspect %s: exit %d, stderr %q; want a failure saying %q", dir, code, errOut, want)
		}
	}
}

// TestRunEngineTable runs against a server whose TTFT histogram counts
// every request it answered at exactly 20 ms: report.txt, report.json and
// surge report's CSV carry the same engine row, with the exact mean.
func TestRunEngineTable(t *testing.T) {
	t.Parallel()
	var served atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		n := served.Load()
		const f = "vllm:time_to_first_token_seconds"
		fmt.Fprintf(w, "# TYPE %s histogram\n%s_bucket{le=\"0.01\"} 0\n%s_bucket{le=\"0.025\"} %d\n%s_bucket{le=\"+Inf\"} %d\n%s_sum %g\n%s_count %d\n",
			f, f, f, n, f, n, f, 0.02*float64(n), f, n)
	})
	fake := fakeServer{ttft: 5 * time.Millisecond, itl: time.Millisecond, tokens: 8}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fake.ServeHTTP(w, r)
		served.Add(1)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := run(t, "run", "testdata/run.yaml", "--target", srv.URL, "-o", dir, "--scrape-interval", "100ms")
	if code != exitOK {
		t.Fatalf("run exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !engineMean.MatchString(out) || !strings.Contains(out, "not measurable") {
		t.Errorf("text report lacks the engine table with its 20.0 ms mean:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Engine []struct {
			Metric string `json:"metric"`
			Mean   struct {
				EngineUS float64 `json:"engine_us"`
			} `json:"mean"`
			Quantiles []struct {
				Measurable bool `json:"gap_measurable"`
			} `json:"quantiles"`
		} `json:"engine"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Engine) != 1 || rep.Engine[0].Metric != "ttft" || rep.Engine[0].Mean.EngineUS != 20_000 || len(rep.Engine[0].Quantiles) != 3 {
		t.Errorf("report.json engine table %+v, want one ttft row with mean 20000 µs and three quantiles", rep.Engine)
	}
	code, csv, _ := run(t, "report", dir, "--format", "csv")
	if code != exitOK || !strings.Contains(csv, "(all),engine,ttft,mean_engine,20000,us\n") {
		t.Errorf("surge report --format csv: exit %d, no engine mean row", code)
	}
}
