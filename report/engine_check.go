package report

import "surge/metrics"

// EngineMeans are the rows of es whose exact means can be set beside the
// client's (TTFT and E2E, which the server's histograms time from the
// request's arrival), for metrics.EngineCheck.
func EngineMeans(es []EngineLatency) []metrics.EngineMean {
	var out []metrics.EngineMean
	for _, e := range es {
		if e.Mean == nil || e.Mean.ClientUS == nil || e.Metric != "ttft" && e.Metric != "e2e" {
			continue
		}
		out = append(out, metrics.EngineMean{Metric: e.Metric, ClientUS: *e.Mean.ClientUS, EngineUS: e.Mean.EngineUS, FromArrival: true})
	}
	return out
}
