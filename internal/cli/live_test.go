package cli

import (
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

const liveSpec = `version: 1
seed: 31
duration: 4s
clients:
  - name: c
    model: Llama-3.1-8B
    rate: 20/s
    input: 100
    output: 30
`

// TestLiveMetrics scrapes surge's own /metrics while a run goes: every
// scrape parses with prometheus/common, the finished-request counter
// never goes down, and it never counts more requests than the records
// hold at the end (package live checks that they agree exactly).
func TestLiveMetrics(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	spec := writeSpec(t, tmp, "l.yaml", liveSpec)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	out := filepath.Join(tmp, "run")
	done := make(chan int, 1)
	go func() {
		code, _, _ := run(t, "run", spec, "--metrics-addr", addr, "-o", out)
		done <- code
	}()
	var last float64
	scrapes := 0
	for finished := false; !finished; {
		select {
		case code := <-done:
			if code != exitOK {
				t.Fatalf("run: exit %d", code)
			}
			finished = true
		case <-time.After(200 * time.Millisecond):
			resp, err := http.Get("http://" + addr + "/metrics")
			if err != nil {
				continue // not up yet, or already down
			}
			p := expfmt.NewTextParser(model.UTF8Validation)
			fams, err := p.TextToMetricFamilies(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatalf("scrape %d does not parse: %v", scrapes, err)
			}
			var n float64
			for _, m := range fams["surge_requests_total"].GetMetric() {
				n += m.GetCounter().GetValue()
			}
			if n < last {
				t.Errorf("requests finished went down from %g to %g", last, n)
			}
			last = n
			scrapes++
		}
	}
	rs := readRun(t, out)
	if scrapes < 3 || last == 0 || last > float64(len(rs.Records)) {
		t.Errorf("%d scrapes, last counted %g requests; the records hold %d", scrapes, last, len(rs.Records))
	}
}
