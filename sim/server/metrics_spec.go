package server

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"surge/sim"
)

// specCollector exports the engine's speculative decoding counters under
// vLLM's names (vllm/v1/spec_decode/metrics.py): drafts, draft tokens,
// accepted tokens, and accepted tokens by draft position, labelled
// position="0" … drafts−1. A server registers it only with speculative
// decoding on, as vLLM does.
type specCollector struct {
	drafts, draftTokens, accepted, perPos *prometheus.Desc

	positions int
	stats     func() sim.Stats
}

func newSpecCollector(labels prometheus.Labels, positions int, stats func() sim.Stats) *specCollector {
	desc := func(name, help string, variable ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, variable, labels)
	}
	return &specCollector{
		drafts:      desc("vllm:spec_decode_num_drafts_total", "Number of spec decoding drafts."),
		draftTokens: desc("vllm:spec_decode_num_draft_tokens_total", "Number of draft tokens."),
		accepted:    desc("vllm:spec_decode_num_accepted_tokens_total", "Number of accepted tokens."),
		perPos:      desc("vllm:spec_decode_num_accepted_tokens_per_pos_total", "Accepted tokens per draft position.", "position"),
		positions:   min(positions, sim.MaxSpeculativeTokens),
		stats:       stats,
	}
}

// Describe sends the collector's descriptors.
func (c *specCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.drafts, c.draftTokens, c.accepted, c.perPos} {
		ch <- d
	}
}

// Collect sends the counters' current values.
func (c *specCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	counter := func(desc *prometheus.Desc, v int64, pos ...string) {
		ch <- prometheus.MustNewConstMetric(desc, prometheus.CounterValue, float64(v), pos...)
	}
	counter(c.drafts, st.SpecDrafts)
	counter(c.draftTokens, st.SpecDraftTokens)
	counter(c.accepted, st.SpecAccepted)
	for i := range c.positions {
		counter(c.perPos, st.SpecAcceptedPerPos[i], strconv.Itoa(i))
	}
}
