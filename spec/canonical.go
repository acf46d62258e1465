package spec

import (
	"math"
	"time"

	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"surge/arrival"
	"surge/dist"
)

// Canonical renders the resolved spec as YAML in a fixed form: defaults
// filled in, every key in a fixed order, numbers in their shortest exact
// form, durations like 1h30m, rates per second, distributions by their
// String, strings double-quoted. Equal specs give equal bytes, so its hash
// identifies the workload however the file was written.
//
// The output is itself a spec that Parse reads back to an equal Spec, with
// one normalisation: a top-level rate shared by weight is already folded
// into each client's rate, so the top-level rate does not appear. Weights
// appear where they change the workload. With a closed-loop client, every
// client's weight is printed, since the closed-loop clients' sessions are
// their weights' share of requests, summed over all clients; Parse accepts a
// weight beside a rate in such a spec. Without one, weights only split the
// top-level rate, which the folded rates already say, and are left out: a
// rate shared by weight and the same rates written per client print alike.
func (s *Spec) Canonical() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "version: %d\n", s.Version)
	if s.Name != "" {
		fmt.Fprintf(&b, "name: %s\n", strconv.Quote(s.Name))
	}
	fmt.Fprintf(&b, "seed: %d\n", s.Seed)
	fmt.Fprintf(&b, "tokenizer: %s\n", strconv.Quote(s.Tokenizer))
	if s.Corpus != "" {
		fmt.Fprintf(&b, "corpus: %s\n", strconv.Quote(s.Corpus))
	}
	if s.Duration > 0 {
		fmt.Fprintf(&b, "duration: %s\n", FormatDuration(s.Duration))
	}
	if s.Requests > 0 {
		fmt.Fprintf(&b, "requests: %d\n", s.Requests)
	}
	fmt.Fprintf(&b, "warmup: %s\n", FormatDuration(s.Warmup))
	if s.Salt == SaltNone {
		b.WriteString("salt: none\n") // the default, run, is left out so older hashes hold
	}
	b.WriteString("clients:\n")
	weights := slices.ContainsFunc(s.Clients, func(c Client) bool { return c.Concurrency > 0 })
	for _, c := range s.Clients {
		writeClient(&b, c, weights)
	}
	writeSLO(&b, s.SLO)
	return b.Bytes()
}

// num prints a number in the shortest form that reads back exactly.
func num(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// writeClient renders one client as a list item, with its weight when
// weights is set.
func writeClient(b *bytes.Buffer, c Client, weights bool) {
	fmt.Fprintf(b, "  - name: %s\n", strconv.Quote(c.Name))
	fmt.Fprintf(b, "    model: %s\n", strconv.Quote(c.Model))
	fmt.Fprintf(b, "    api: %s\n", c.API)
	if c.Concurrency > 0 {
		fmt.Fprintf(b, "    concurrency: %d\n", c.Concurrency)
	} else if c.Arrival.Rate > 0 {
		fmt.Fprintf(b, "    rate: %s\n", FormatRate(c.Arrival.Rate))
	}
	if weights {
		fmt.Fprintf(b, "    weight: %s\n", num(c.Weight))
	}
	if c.Concurrency == 0 {
		writeArrival(b, c.Arrival)
	}
	if c.Input != nil {
		fmt.Fprintf(b, "    input: %s\n", strconv.Quote(c.Input.String()))
	}
	if c.Output != nil {
		fmt.Fprintf(b, "    output: %s\n", strconv.Quote(c.Output.String()))
	}
	if c.Inputs != nil {
		fmt.Fprintf(b, "    inputs: %s\n", strconv.Quote(c.Inputs.String()))
	}
	if c.Documents != nil {
		fmt.Fprintf(b, "    documents: %s\n", strconv.Quote(c.Documents.String()))
	}
	if c.Document != nil {
		fmt.Fprintf(b, "    document: %s\n", strconv.Quote(c.Document.String()))
	}
	if c.Reasoning != nil {
		fmt.Fprintf(b, "    reasoning: %s\n", strconv.Quote(c.Reasoning.String()))
	}
	if c.Correlation != 0 {
		fmt.Fprintf(b, "    correlation: %s\n", num(c.Correlation))
	}
	fmt.Fprintf(b, "    prompt: %s\n", c.Prompt)
	if c.Copy != 0 {
		fmt.Fprintf(b, "    copy: %s\n", num(c.Copy))
	}
	writeMix(b, "content", c.Content)
	writeMix(b, "language", c.Language)
	if c.Dataset != nil {
		writeDataset(b, c.Dataset)
	}
	if d := c.Duplicates; d != nil {
		fmt.Fprintf(b, "    duplicates: {share: %s, edit: %s, tokens: %d, within: %d}\n", num(d.Share), d.Edit, d.Tokens, d.Within)
	}
	if c.Output != nil || c.Dataset != nil {
		writeSampling(b, c.Sampling)
	}
	writeSession(b, c.Session)
	if p := c.Prefix; p != nil {
		fmt.Fprintf(b, "    prefix: {pool: %d, length: %s, zipf: %s}\n", p.Pool, strconv.Quote(p.Length.String()), num(p.Zipf))
	}
	if f := c.Faults; f != nil {
		writeFaults(b, f)
	}
	writeRequest(b, c)
	writeImages(b, c.Images)
	writeOptions(b, c)
}

// writeImages renders a client's images block; it is left out when the
// client has none, so that the hashes of older specs hold.
func writeImages(b *bytes.Buffer, im *Images) {
	if im == nil {
		return
	}
	fmt.Fprintf(b, "    images: {count: %s, size: {width: %s, height: %s}, format: %s, distinct: %d}\n",
		strconv.Quote(im.Count.String()), strconv.Quote(im.Width.String()), strconv.Quote(im.Height.String()), im.Format, im.Distinct)
}

// writeSampling renders a client's sampling block.
func writeSampling(b *bytes.Buffer, sp Sampling) {
	b.WriteString("    sampling:\n")
	if sp.Temperature != nil {
		fmt.Fprintf(b, "      temperature: %s\n", num(*sp.Temperature))
	}
	if sp.TopP != nil {
		fmt.Fprintf(b, "      top_p: %s\n", num(*sp.TopP))
	}
	fmt.Fprintf(b, "      max_tokens: %s\n", formatMaxTokens(sp.MaxTokens))
	fmt.Fprintf(b, "      exact_output: %t\n", sp.ExactOutput)
}

// writeFaults renders a faults block, every key in a fixed order; it is
// left out when a client has none, so that the hashes of older specs hold.
func writeFaults(b *bytes.Buffer, f *Faults) {
	b.WriteString("    faults:\n")
	for _, s := range []struct {
		key   string
		share float64
	}{{"empty_prompt", f.EmptyPrompt}, {"malformed_json", f.MalformedJSON}, {"invalid_params", f.InvalidParams}, {"churn", f.Churn}} {
		if s.share > 0 {
			fmt.Fprintf(b, "      %s: %s\n", s.key, num(s.share))
		}
	}
	if o := f.OverContext; o != nil {
		fmt.Fprintf(b, "      over_context: {share: %s, tokens: %d}\n", num(o.Share), o.Tokens)
	}
	if c := f.Cancel; c != nil {
		fmt.Fprintf(b, "      cancel: {share: %s, after_tokens: %d, after: %s}\n", num(c.Share), c.AfterTokens, c.After)
	}
	if s := f.SlowReader; s != nil {
		fmt.Fprintf(b, "      slow_reader: {share: %s, bytes_per_s: %d}\n", num(s.Share), s.BytesPerS)
	}
	if s := f.Stall; s != nil {
		fmt.Fprintf(b, "      stall: {share: %s, for: %s}\n", num(s.Share), s.For)
	}
	for _, s := range f.Storms {
		fmt.Fprintf(b, "      storm: {at: %s, fraction: %s}\n", s.At, num(s.Fraction))
	}
	for _, u := range f.Bursts {
		fmt.Fprintf(b, "      burst: {at: %s, for: %s, factor: %s}\n", u.At, u.For, num(u.Factor))
	}
}

// writeSession renders a session block unless it is the default (single,
// live), which is left out so that the hashes of older specs hold.
func writeSession(b *bytes.Buffer, s Session) {
	if s.Kind == KindAgent {
		writeAgent(b, s)
		return
	}
	if s.Kind == KindRAG {
		writeRAG(b, s)
		return
	}
	if s.Kind == KindBatch {
		writeBatch(b, s)
		return
	}
	if s.Kind == KindChat {
		b.WriteString("    session:\n      kind: chat\n")
		if s.Turns != nil { // nil: every turn of a dataset's conversations
			fmt.Fprintf(b, "      turns: %s\n", strconv.Quote(s.Turns.String()))
		}
		if s.Think != nil {
			fmt.Fprintf(b, "      think: %s\n", strconv.Quote(formatSeconds(s.Think)))
		}
		fmt.Fprintf(b, "      history: %s\n", s.History)
	} else if s.History == HistoryPinned {
		b.WriteString("    session:\n      history: pinned\n")
	}
}

// formatMaxTokens prints a max_tokens policy as the spec writes it.
func formatMaxTokens(n int) string {
	switch n {
	case MaxTokensOutput:
		return "output"
	case MaxTokensNone:
		return "none"
	}
	return strconv.Itoa(n)
}

// writeArrival renders an open-loop client's arrival block.
func writeArrival(b *bytes.Buffer, a arrival.Config) {
	b.WriteString("    arrival:\n")
	fmt.Fprintf(b, "      process: %s\n", cmp.Or(a.Process, arrival.Poisson))
	switch a.Process {
	case arrival.Gamma, arrival.Weibull, arrival.LogNormal:
		fmt.Fprintf(b, "      cv: %s\n", num(a.CV))
	case arrival.OnOff:
		fmt.Fprintf(b, "      burst: %s\n      idle: %s\n", num(a.Burst), num(a.Idle))
		if a.CV != 0 {
			fmt.Fprintf(b, "      cv: %s\n", num(a.CV))
		}
		if a.BurstCV != 0 {
			fmt.Fprintf(b, "      burst_cv: %s\n", num(a.BurstCV))
		}
		if a.IdleCV != 0 {
			fmt.Fprintf(b, "      idle_cv: %s\n", num(a.IdleCV))
		}
		if a.RateCV != 0 {
			fmt.Fprintf(b, "      rate_cv: %s\n", num(a.RateCV))
		}
		for _, l := range []struct {
			key string
			law dist.Dist
		}{{"burst_law", a.BurstLaw}, {"idle_law", a.IdleLaw}, {"rate_law", a.RateLaw}} {
			if l.law != nil {
				fmt.Fprintf(b, "      %s: %s\n", l.key, strconv.Quote(l.law.String()))
			}
		}
	}
	cv := a.Curve
	if len(cv.Stages) > 0 {
		b.WriteString("      stages:\n")
		for _, st := range cv.Stages {
			fmt.Fprintf(b, "        - {at: %s, rate: %s}\n", FormatDuration(st.At), FormatRate(st.Rate))
		}
	}
	if r := cv.Ramp; r != nil {
		fmt.Fprintf(b, "      ramp: {from: %s, to: %s, over: %s}\n", FormatRate(r.From), FormatRate(r.To), FormatDuration(r.Over))
	}
	if w := cv.Diurnal; w != nil {
		fmt.Fprintf(b, "      diurnal: {period: %s, peak_to_trough: %s, peak_at: %s}\n",
			FormatDuration(w.Period), num(w.PeakToTrough), FormatDuration(w.PeakAt))
	}
	if a.Grid > 0 {
		fmt.Fprintf(b, "      grid: %s\n", FormatDuration(a.Grid))
	}
	if a.Count > 0 {
		fmt.Fprintf(b, "      count: %d\n", a.Count)
	}
	if len(cv.Spikes) > 0 {
		b.WriteString("      spikes:\n")
		for _, sp := range cv.Spikes {
			fmt.Fprintf(b, "        - {at: %s, factor: %s, for: %s}\n", FormatDuration(sp.At), num(sp.Factor), FormatDuration(sp.For))
		}
	}
}

// writeSLO renders the objectives grouped by metric, in the order of metrics and
// then by percentile.
func writeSLO(b *bytes.Buffer, slo []SLO) {
	if len(slo) == 0 {
		return
	}
	sorted := slices.Clone(slo)
	slices.SortStableFunc(sorted, func(a, b SLO) int {
		return cmp.Or(
			cmp.Compare(metricRank(a.Metric), metricRank(b.Metric)),
			cmp.Compare(a.Metric, b.Metric),
			cmp.Compare(a.Percentile, b.Percentile))
	})
	b.WriteString("slo:\n")
	for i, o := range sorted {
		if i == 0 || o.Metric != sorted[i-1].Metric {
			if i > 0 {
				b.WriteString("}\n")
			}
			fmt.Fprintf(b, "  %s: {", o.Metric)
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s: %s", statKey(o.Percentile), FormatDuration(o.Bound))
	}
	b.WriteString("}\n")
}

// metricRank orders metrics as the metrics list does, unknown ones last.
func metricRank(m string) int {
	if i := slices.Index(metrics, m); i >= 0 {
		return i
	}
	return len(metrics)
}

// formatSeconds prints a distribution of durations: a fixed one as a
// duration, others in the compact form, whose numbers are seconds.
func formatSeconds(d dist.Dist) string {
	if v, err := strconv.ParseFloat(d.String(), 64); err == nil {
		return FormatDuration(time.Duration(math.Round(v * float64(time.Second))))
	}
	return d.String()
}

// writeAgent renders the session block of an agent client.
func writeAgent(b *bytes.Buffer, s Session) {
	a := s.Agent
	fmt.Fprintf(b, "    session:\n      kind: agent\n      steps: %s\n      tools: %s\n      tool_latency: %s\n      tool_result: %s\n",
		strconv.Quote(a.Steps.String()), strconv.Quote(a.Tools.String()),
		strconv.Quote(formatSeconds(a.ToolLatency)), strconv.Quote(a.ToolResult.String()))
	if a.Scale != nil {
		fmt.Fprintf(b, "      scale: %s\n", strconv.Quote(a.Scale.String()))
	}
	if c := a.Correlation; c != nil {
		fmt.Fprintf(b, "      correlation: {steps_input: %s, steps_scale: %s, input_scale: %s}\n", num(c.StepsInput), num(c.StepsScale), num(c.InputScale))
	}
	if sa := a.Subagent; sa != nil {
		fmt.Fprintf(b, "      subagent: {probability: %s, steps: %s, task: %s}\n",
			num(sa.Probability), strconv.Quote(sa.Steps.String()), strconv.Quote(sa.Task.String()))
	}
	if c := a.Compaction; c != nil {
		fmt.Fprintf(b, "      compaction: {limit: %d, to: %s}\n", c.Limit, strconv.Quote(c.To.String()))
	}
	if r := a.Reset; r != nil {
		fmt.Fprintf(b, "      reset: {probability: %s, to: %s", num(r.Probability), strconv.Quote(r.To.String()))
		if h := r.ByContext; h != nil {
			at, ps := make([]string, len(h.At)), make([]string, len(h.At))
			for i := range h.At {
				at[i], ps[i] = strconv.Itoa(h.At[i]), num(h.Probability[i])
			}
			fmt.Fprintf(b, ", by_context: {at: [%s], probability: [%s]}", strings.Join(at, ", "), strings.Join(ps, ", "))
		}
		b.WriteString("}\n")
	}
	if ts := a.ToolSet; ts != nil {
		fmt.Fprintf(b, "      tool_set: {count: %d, schema: %s, scope: %s, choice: %s, parallel: %t}\n",
			ts.Count, strconv.Quote(ts.Schema.String()), ts.Scope, ts.Choice, ts.Parallel)
	}
	fmt.Fprintf(b, "      history: %s\n", s.History)
}

// writeMix writes a weighted mix as a flow mapping in name order, or
// nothing for nil, so that specs without one hash as they did before.
func writeMix(b *bytes.Buffer, key string, ws []Weight) {
	if ws == nil {
		return
	}
	sorted := slices.Clone(ws)
	slices.SortFunc(sorted, func(x, y Weight) int { return strings.Compare(x.Name, y.Name) })
	parts := make([]string, len(sorted))
	for i, w := range sorted {
		parts[i] = w.Name + ": " + num(w.Weight)
	}
	fmt.Fprintf(b, "    %s: {%s}\n", key, strings.Join(parts, ", "))
}
