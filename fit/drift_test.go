package fit

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"surge/spec"
)

// times returns n arrival times spread evenly over [from, to) seconds.
func times(n int, from, to float64) []float64 {
	ts := make([]float64, n)
	for i := range ts {
		ts[i] = from + (to-from)*float64(i)/float64(n)
	}
	return ts
}

// TestGradeClientShape grades traffic spread over two hours against
// traffic of the same rate that puts three quarters of it in the first:
// the hourly shape is off (total variation 0.25), and within one hour the
// shape is not measured.
func TestGradeClientShape(t *testing.T) {
	even := Sample{Times: times(1000, 0, 7200), In: times(1000, 1, 100), Out: times(1000, 1, 10)}
	skewed := Sample{Times: append(times(750, 0, 3600), times(250, 3600, 7200)...), In: even.In, Out: even.Out}
	for _, tc := range []struct {
		name      string
		log, spec Sample
		shape     float64 // want the shape's distance; -1: not measured
		off       bool
	}{
		{"same", even, even, 0, false},
		{"skewed", even, skewed, 0.25, true},
		{"one hour", Sample{Times: times(1000, 0, 3000), In: even.In, Out: even.Out}, skewed, -1, false},
	} {
		c := gradeClient("c", "c", tc.log, tc.spec, DefaultDriftBounds)
		i := slices.IndexFunc(c.Measures, func(m DriftMeasure) bool { return m.Name == DriftShape })
		switch {
		case tc.shape < 0 && i >= 0:
			t.Errorf("%s: shape measured %+v, want none", tc.name, c.Measures[i])
		case tc.shape >= 0 && (i < 0 || abs(c.Measures[i].Distance-tc.shape) > 1e-9 || c.Measures[i].Off != tc.off):
			t.Errorf("%s: measures %+v, want shape %.3f off %v", tc.name, c.Measures, tc.shape, tc.off)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestPairClients pairs a log's clients with a spec's by name, the split
// parts of a spec's client together (by prefix or by model), and names what either side lacks; a
// spec of one client takes a log of one whatever their names.
func TestPairClients(t *testing.T) {
	s := &spec.Spec{Clients: []spec.Client{{Name: "chat.shared"}, {Name: "chat.own"}, {Name: "batch"}}}
	pairs, parts, missing := pairClients(s, []string{"Chat", "code"})
	if pairs["Chat"] != "chat" || len(pairs) != 1 || !slices.Equal(parts["chat"], []string{"chat.shared", "chat.own"}) {
		t.Errorf("pairs %v, parts %v, want Chat paired with chat, of chat.shared and chat.own", pairs, parts)
	}
	want := []string{"client code of the log is not in the spec", "client batch of the spec has no sessions in the log"}
	if !slices.Equal(missing, want) {
		t.Errorf("missing %q, want %q", missing, want)
	}
	one := &spec.Spec{Clients: []spec.Client{{Name: "a"}}}
	if pairs, _, missing := pairClients(one, []string{"b"}); pairs["b"] != "a" || len(missing) != 0 {
		t.Errorf("one client each: pairs %v, missing %v, want b paired with a", pairs, missing)
	}
	// A client fit split by model, one of whose models has a dot.
	byModel := &spec.Spec{Clients: []spec.Client{{Name: "weka.claude-opus-4-5"}, {Name: "weka.claude-3.5-sonnet"}, {Name: "weka.other"}}}
	pairs, parts, missing = pairClients(byModel, []string{"weka"})
	if pairs["weka"] != "weka" || len(parts["weka"]) != 3 || len(missing) != 0 {
		t.Errorf("by model: pairs %v, parts %v, missing %v, want weka of all three", pairs, parts, missing)
	}
}

// TestDriftReportText checks that the table fits in 100 columns and
// gives each verdict.
func TestDriftReportText(t *testing.T) {
	r := DriftReport{Clients: []DriftClient{{Client: "c", Spec: "c", Sessions: [2]int{10, 12},
		Measures: []DriftMeasure{measure(DriftRate, 123456.7, 0.0001234, 12345.678, 0.25), measure(DriftInput, 1, 1, 0, 0.1)}}}}
	r.Off = []string{"client c: rate/s 1.23e+04, bound 0.25"}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(b.String()) {
		if len(line) > 101 {
			t.Errorf("line of %d columns: %q", len(line)-1, line)
		}
	}
	for _, want := range []string{" off\n", " ok\n", "the spec no longer describes the log\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, &b)
		}
	}
}

// TestGradeClientEpisodes grades steps per episode and context growth
// only between clients of multi-turn sessions: episodes of 10 steps
// against episodes of 20 are off (KS 1), single requests get neither.
func TestGradeClientEpisodes(t *testing.T) {
	ep := func(steps float64) Sample {
		s := Sample{In: []float64{1, 2}, Out: []float64{1, 2}}
		for range 50 {
			s.Episodes.Steps = append(s.Episodes.Steps, steps)
			s.Episodes.Delta = append(s.Episodes.Delta, 100, -50)
			s.Episodes.Multi++
		}
		return s
	}
	names := func(c DriftClient) (off map[string]bool) {
		off = map[string]bool{}
		for _, m := range c.Measures {
			off[m.Name] = m.Off
		}
		return off
	}
	if got := names(gradeClient("a", "a", ep(10), ep(20), DefaultDriftBounds)); !got[DriftSteps] || got[DriftGrowth] {
		t.Errorf("10 steps against 20: %v, want steps off and growth ok", got)
	}
	single := Sample{In: []float64{1, 2}, Out: []float64{1, 2}, Episodes: Episodes{Steps: []float64{1, 1}}}
	if got := names(gradeClient("a", "a", single, single, DefaultDriftBounds)); len(got) != 2 {
		t.Errorf("single requests: measures %v, want input and output only", got)
	}
}

// TestDriftBoundsDefault takes each bound not above 0 from the defaults.
func TestDriftBoundsDefault(t *testing.T) {
	got := DriftBounds{Rate: 0.5, CV: -1}.orDefault()
	if want := (DriftBounds{KS: 0.1, Rate: 0.5, CV: 0.25, Shape: 0.1}); got != want {
		t.Errorf("bounds %+v, want %+v", got, want)
	}
}
