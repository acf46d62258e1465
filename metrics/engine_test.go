package metrics

import (
	"strings"
	"testing"
)

func TestEngineCheck(t *testing.T) {
	// timed is a healthy run of 100 requests whose server timed each
	// TTFT serverTTFT and whose client saw gap µs more (gap[i%len(gap)]).
	timed := func(engine string, queue int64, serverTTFT int64, gap ...int64) *Summary {
		rs := healthyRun(100)
		rs.Header.Engine = engine
		for i := range rs.Records {
			r := &rs.Records[i]
			r.ServerTTFTUS, r.ServerQueueUS = serverTTFT, queue
			r.TTFTUS = serverTTFT + gap[i%len(gap)]
			r.TTFOUS = r.TTFTUS
			r.ServerE2EUS = r.E2EUS - gap[i%len(gap)]
		}
		return Summarize(rs, Options{})
	}
	tests := []struct {
		name    string
		s       *Summary
		means   []EngineMean
		ok      bool
		applies bool
		want    string
	}{
		{"no server timings", Summarize(healthyRun(100), Options{}), nil, true, false, "no timings"},
		{"built-in engine agrees", timed("Llama-3.1-8B@H100-SXMx1", 0, 20_000, 300), nil, true, true, "TTFT median gap 0.3 ms"},
		{"built-in engine far behind the client", timed("Llama-3.1-8B@H100-SXMx1", 0, 20_000, 30_000), nil, false, true, "TTFT is 30 ms longer"},
		{"server that reports its queue, far behind", timed("", 500, 20_000, 30_000), nil, false, true, "longer than the server's"},
		{"llama-server's prompt_ms starts after queueing", timed("", 0, 20_000, 30_000), nil, true, true, "gap 30 ms"},
		{"client shorter than the server", timed("", 0, 20_000, 100, 100, 100, 100, 100, 100, 100, 100, 100, -5000), nil, false, true, "shorter than the server itself did in 10 of 100"},
		{"one contradiction in 100 is rounding", timed("", 0, 20_000, append(make([]int64, 99), -5000)...), nil, true, true, "agree"},
		{"histogram means agree", Summarize(healthyRun(100), Options{}), []EngineMean{{Metric: "ttft", ClientUS: 51_000, EngineUS: 48_000, FromArrival: true}}, true, true, "TTFT mean gap 3 ms"},
		{"histogram mean far below the client", Summarize(healthyRun(100), Options{}), []EngineMean{{Metric: "e2e", ClientUS: 100_000, EngineUS: 50_000, FromArrival: true}}, false, true, "E2E is 50 ms longer"},
		{"histogram mean above the client", Summarize(healthyRun(100), Options{}), []EngineMean{{Metric: "ttft", ClientUS: 30_000, EngineUS: 50_000, FromArrival: true}}, false, true, "shorter than the server's histogram's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := EngineCheck(tt.s, tt.means)
			if c.Name != CheckEngine || c.OK != tt.ok || c.Applies != tt.applies || !strings.Contains(c.Detail, tt.want) {
				t.Fatalf("got %+v; want ok %v, applies %v, detail with %q", c, tt.ok, tt.applies, tt.want)
			}
			if len(tt.means) > 0 {
				return
			}
			// Without histogram means, Summarize's own verdict has the
			// same engine check.
			for _, mc := range tt.s.Measurement.Checks {
				if mc.Name == CheckEngine && mc != c {
					t.Errorf("the summary's engine check %+v differs from %+v", mc, c)
				}
			}
		})
	}
}
