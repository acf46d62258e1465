package sweep

import (
	"encoding/json"
	"fmt"

	"surge/metrics"
	"surge/trace"
)

// Read reads back a sweep's result from data, the sweep.json it wrote
// (called name in errors), giving each point the summary of its records, which records reads from
// the point's Dir, and the verdict Decide gives it. A sweep.json from
// before a point recorded its measured requests, send rate and mean
// requests in flight has them filled in from the summary.
func Read(name string, data []byte, records func(dir string) (*trace.Records, error)) (*Result, error) {
	var res Result
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range res.Points {
		p := &res.Points[i]
		rs, err := records(p.Dir)
		if err != nil {
			return nil, fmt.Errorf("sweep point %s: %w", p.Dir, err)
		}
		p.Summary = metrics.Summarize(rs, metrics.Options{})
		if all := &p.Summary.All; p.Measured == 0 && all.Requests > 0 {
			p.Measured, p.SendRate, p.MeanInFlight = all.Requests, all.Throughput.SendRatePerS, all.Throughput.MeanConcurrency
		}
		p.Decide() // the same word from the same figures, also for an older sweep.json
	}
	return &res, nil
}
