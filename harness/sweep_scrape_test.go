package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"surge/spec"
	"surge/sweep"
)

// sweepScrapeSpec is a small closed-loop spec the sweep's points scale.
const sweepScrapeSpec = `version: 1
requests: 6
warmup: 0s
salt: none
clients:
  - {name: c, model: m, concurrency: 1, input: 8, output: 1}
`

// TestSweepPointsScrape: each point of a live sweep scrapes the server's
// metrics beside its records, so its report has the engine's view and
// sweep.json each point's speculative decoding; a target without
// metrics is said once and not scraped again.
func TestSweepPointsScrape(t *testing.T) {
	t.Parallel()
	for _, metrics := range []bool{true, false} {
		// Each point scrapes once as it starts and once as it ends (the
		// interval is longer than the sweep): a point's requests wait for
		// its first scrape, when the count is odd, so that its counters
		// have a baseline however loaded the machine.
		var served, scrapes atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/metrics":
				scrapes.Add(1)
				if !metrics {
					http.NotFound(w, r)
					return
				}
				n := served.Load()
				fmt.Fprintf(w, "vllm:spec_decode_num_drafts_total %d\nvllm:spec_decode_num_draft_tokens_total %d\nvllm:spec_decode_num_accepted_tokens_total %d\n", 2*n, 4*n, 3*n)
			case "/v1/models":
				fmt.Fprint(w, `{"object":"list","data":[{"id":"m","object":"model"}]}`)
			default:
				for i := 0; metrics && scrapes.Load()%2 == 0; i++ {
					if i == 10_000 {
						t.Error("no first scrape of the point within 10 s")
						break
					}
					time.Sleep(time.Millisecond)
				}
				served.Add(1)
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n")
			}
		}))
		s, err := spec.Parse("s.yaml", []byte(sweepScrapeSpec))
		if err != nil {
			t.Fatal(err)
		}
		var log syncLog
		dir := t.TempDir()
		res, err := Sweep(context.Background(), SweepConfig{
			Search: sweep.Config{Mode: sweep.Concurrency, Loads: []float64{1, 2},
				Headroom: sweep.DefaultHeadroom, Precision: sweep.DefaultPrecision, Confidence: sweep.DefaultConfidence},
			Spec: s, SpecPath: "s.yaml", Files: fstest.MapFS{"s.yaml": {Data: []byte(sweepScrapeSpec)}},
			Run: Config{Target: srv.URL, NoPreflight: true, Log: &log, Scrape: Scrape{Interval: time.Hour}}, Dir: dir,
		})
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Points {
			_, serr := os.Stat(filepath.Join(dir, p.Dir, "server_metrics.jsonl"))
			if metrics && (serr != nil || p.SpecDecode == nil || p.SpecDecode.AcceptanceRate != 0.75) {
				t.Errorf("point %g: server metrics %v, spec decode %+v; want both, 75%% accepted", p.Load, serr, p.SpecDecode)
			}
			if !metrics && p.SpecDecode != nil {
				t.Errorf("point %g without metrics: spec decode %+v", p.Load, p.SpecDecode)
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
		if err != nil {
			t.Fatal(err)
		}
		var js struct {
			Points []struct {
				SpecDecode *struct {
					AcceptanceRate float64 `json:"acceptance_rate"`
				} `json:"spec_decode"`
			} `json:"points"`
		}
		if err := json.Unmarshal(data, &js); err != nil || len(js.Points) != 2 || metrics != (js.Points[0].SpecDecode != nil) {
			t.Errorf("metrics %v: sweep.json points %+v (%v)", metrics, js.Points, err)
		}
		if said := strings.Count(log.String(), "no metrics at"); !metrics && said != 1 {
			t.Errorf("a target without metrics was said %d times, want once:\n%s", said, log.String())
		}
	}
}
