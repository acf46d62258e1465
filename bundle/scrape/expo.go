package scrape

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math"
	"mime"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Parse reads a metrics exposition body and returns the samples of the
// Known families and of those keep lists (exact names or prefixes), sorted
// by name and labels. contentType is the response's Content-Type; the
// Prometheus text format is read with expfmt's parser, and OpenMetrics
// text (application/openmetrics-text, or a body ending "# EOF") is first
// reduced to the text format: # EOF and # UNIT lines and exemplars are
// dropped, OpenMetrics-only types become untyped, and a counter's TYPE
// moves to its _total series.
func Parse(body []byte, contentType string, keep []string) ([]Sample, error) {
	return parse(body, contentType, newFilter(keep))
}

func parse(body []byte, contentType string, f filter) ([]Sample, error) {
	if isOpenMetrics(contentType, body) {
		body = fromOpenMetrics(body)
	}
	// The text parser treats a last line without its newline as a
	// truncated stream; a trailing newline costs nothing when present.
	if len(body) > 0 && body[len(body)-1] != '\n' {
		body = append(body[:len(body):len(body)], '\n')
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("parsing exposition: %w", err)
	}
	var out []Sample
	for name, fam := range fams {
		if !f.keeps(name) {
			continue
		}
		for _, m := range fam.GetMetric() {
			out = append(out, sample(name, fam.GetType(), m))
		}
	}
	slices.SortFunc(out, compareSamples)
	return out, nil
}

// sample converts one dto metric of family name and type t.
func sample(name string, t dto.MetricType, m *dto.Metric) Sample {
	s := Sample{Name: name, Type: typeName(t)}
	if lp := m.GetLabel(); len(lp) > 0 {
		s.Labels = make(map[string]string, len(lp))
		for _, l := range lp {
			s.Labels[l.GetName()] = l.GetValue()
		}
	}
	switch {
	case m.Histogram != nil:
		s.Histogram = histogram(m.Histogram)
	case m.Summary != nil:
		s.Summary = summary(m.Summary)
	default:
		v := Float(scalar(m))
		s.Value = &v
	}
	return s
}

func typeName(t dto.MetricType) string {
	switch t {
	case dto.MetricType_COUNTER:
		return "counter"
	case dto.MetricType_GAUGE:
		return "gauge"
	case dto.MetricType_SUMMARY:
		return "summary"
	case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
		return "histogram"
	}
	return "untyped"
}

func scalar(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Untyped != nil:
		return m.Untyped.GetValue()
	}
	return math.NaN()
}

// histogram converts a classic histogram, sorting buckets by bound and
// adding the +Inf bucket (holding Count) when the exposition left it out.
func histogram(h *dto.Histogram) *Histogram {
	count := h.GetSampleCountFloat()
	if count == 0 {
		count = float64(h.GetSampleCount())
	}
	bs := slices.Clone(h.GetBucket())
	slices.SortStableFunc(bs, func(a, b *dto.Bucket) int { return cmp.Compare(a.GetUpperBound(), b.GetUpperBound()) })
	out := &Histogram{Sum: Float(h.GetSampleSum()), Count: Float(count)}
	for _, b := range bs {
		c := b.GetCumulativeCountFloat()
		if c == 0 {
			c = float64(b.GetCumulativeCount())
		}
		out.LE = append(out.LE, Float(b.GetUpperBound()))
		out.Cum = append(out.Cum, Float(c))
	}
	if n := len(out.LE); n == 0 || !math.IsInf(float64(out.LE[n-1]), 1) {
		out.LE = append(out.LE, Float(math.Inf(1)))
		out.Cum = append(out.Cum, Float(count))
	}
	return out
}

func summary(s *dto.Summary) *Summary {
	out := &Summary{Sum: Float(s.GetSampleSum()), Count: Float(s.GetSampleCount())}
	for _, q := range s.GetQuantile() {
		out.Q = append(out.Q, Float(q.GetQuantile()))
		out.V = append(out.V, Float(q.GetValue()))
	}
	return out
}

// compareSamples orders samples by name, then by their sorted labels.
func compareSamples(a, b Sample) int {
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(labelKey(a.Labels), labelKey(b.Labels))
}

// labelKey renders labels as a canonical string, k1="v1",k2="v2".
func labelKey(l map[string]string) string {
	var sb strings.Builder
	for i, k := range slices.Sorted(maps.Keys(l)) {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "%s=%q", k, l[k])
	}
	return sb.String()
}

// isOpenMetrics reports whether a body is OpenMetrics text, by its
// content type or, failing that, by its mandatory final "# EOF" line.
func isOpenMetrics(contentType string, body []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt == "application/openmetrics-text" {
		return true
	}
	return bytes.HasSuffix(bytes.TrimRight(body, "\n"), []byte("# EOF"))
}
