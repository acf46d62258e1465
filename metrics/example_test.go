package metrics_test

import (
	"fmt"

	"surge/metrics"
	"surge/trace"
)

func ExampleSummarize() {
	rs := &trace.Records{
		Header: trace.RunHeader{Target: "http://127.0.0.1:8000", SLO: []trace.SLO{{Metric: "ttft", Percentile: 50, BoundUS: 250_000}}},
		End:    &trace.RunEnd{DurationUS: 3_000_000, Scheduled: 10, Sent: 10},
	}
	for i := range 10 {
		at := int64(i) * 200_000
		rs.Records = append(rs.Records, trace.Record{
			Client: "chat", IntendedUS: at, SentUS: at + 500,
			TTFTUS: int64(i+1) * 50_000, E2EUS: 1_000_000, Chunks: 20, ServerOutputTokens: 20,
		})
	}
	// The TTFT SLO counts from the intended send: the request whose TTFT
	// is exactly 250 ms was sent 0.5 ms late, so it misses the bound.
	s := metrics.Summarize(rs, metrics.Options{})
	q, _ := s.All.Latency.TTFT.At(50)
	fmt.Printf("ttft p50 %.0f ms, 95%% CI [%.0f, %.0f] ms (ranks %d–%d of %d)\n",
		q.Value/1000, q.CI.Lo/1000, q.CI.Hi/1000, q.CI.LoRank, q.CI.HiRank, s.All.Latency.TTFT.N)
	fmt.Printf("window %.4f s, %.2f req/s, goodput %d of %d\n",
		s.Window.Seconds(), s.All.Throughput.RequestsPerS, s.All.Goodput.Requests, s.All.OK)
	// Output:
	// ttft p50 250 ms, 95% CI [100, 450] ms (ranks 2–9 of 10)
	// window 2.8005 s, 3.57 req/s, goodput 4 of 10
}
