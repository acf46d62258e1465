package report

import (
	"fmt"
	"io"
	"strings"
)

// EngineLatency sets a latency the server measured itself, from the
// histogram of its /metrics over the run's measurement window, beside the
// client's: their gap is what the engine does not see (the network, the
// server's HTTP front end, the client's own overhead).
type EngineLatency struct {
	Metric string // "ttft", "itl" or "e2e"
	Family string // the server's histogram, e.g. vllm:time_to_first_token_seconds
	Count  int    // observations in the window
	// Engine and Client are p50, p90 and p99 in µs: the engine's
	// interpolated within its histogram buckets, the client's from the
	// send time.
	Engine, Client [3]float64
}

// engineQuantiles name the columns of EngineLatency's quantiles.
var engineQuantiles = [3]string{"p50", "p90", "p99"}

// EngineText writes the engine-against-client lines of a text report;
// nothing when es is empty.
func EngineText(w io.Writer, es []EngineLatency) error {
	if len(es) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintln(&b, "\nengine      latency the server measured (its /metrics histograms over the measurement window) against the client's, ms;")
	fmt.Fprintln(&b, "            the engine's are interpolated within histogram buckets, so a gap smaller than a bucket's width is not a measurement")
	t := &table{left: map[int]bool{1: true}}
	t.add("", "histogram", "n", "engine p50", "client p50", "gap p50", "engine p99", "client p99", "gap p99")
	for _, e := range es {
		t.add(e.Metric, e.Family, count(e.Count), ms(e.Engine[0]), ms(e.Client[0]), ms(e.Client[0]-e.Engine[0]),
			ms(e.Engine[2]), ms(e.Client[2]), ms(e.Client[2]-e.Engine[2]))
	}
	if err := t.write(&b, "  "); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// engineGrid is the HTML table of es; nil when empty.
func engineGrid(es []EngineLatency) *grid {
	if len(es) == 0 {
		return nil
	}
	g := &grid{Head: []string{"metric", "server histogram", "n"}}
	for _, q := range engineQuantiles {
		g.Head = append(g.Head, "engine "+q+" ms", "client "+q+" ms", "gap "+q+" ms")
	}
	for _, e := range es {
		row := []string{e.Metric, e.Family, count(e.Count)}
		for i := range engineQuantiles {
			row = append(row, ms(e.Engine[i]), ms(e.Client[i]), ms(e.Client[i]-e.Engine[i]))
		}
		g.add(row...)
	}
	return g
}
