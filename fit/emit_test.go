package fit

import (
	"math"
	"strings"
	"testing"

	"surge/spec"
)

// fitClient fits one trace as a client.
func fitClient(t *testing.T, rel, name string, flat bool) Client {
	t.Helper()
	tr := loadTrace(t, rel)
	a, err := Arrivals(tr.times, ArrivalOptions{Flat: flat})
	if err != nil {
		t.Fatal(err)
	}
	l, err := Lengths(tr.in, tr.out)
	if err != nil {
		t.Fatal(err)
	}
	return Client{Name: name, Arrivals: a, Lengths: l, Sessions: len(tr.times)}
}

func TestSpecParses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason   string
		rel      string
		flat     bool
		process  string
		comments []string // must appear in the YAML
	}{
		{"Poisson arrivals with a rate curve", mooncakeSynthetic, false, "poisson", []string{"best exponential(rate=3.895)", "(good)"}},
		{"grid noted; Poisson from the slot counts", mooncakeConv, false, "poisson", []string{"# grid: timestamps on a 3 s grid", "10.2 requests per slot"}},
		{"on/off chosen by BIC; the gamma refused for its ties; a poor single law reported as such", azureCode, true, "onoff",
			[]string{"(poor)", "# on/off: 12 of 57 bins", "empirical quantile table", "gamma BIC", "(refused: would tie"}},
		{"gamma by BIC, Weibull nearest by KS; correlation noted", azureConv, true, "gamma", []string{"best weibull", "Spearman 0.073", "Pearson -0.112"}},
	}
	for _, tt := range tests {
		c := fitClient(t, tt.rel, "Trace "+tt.rel, tt.flat)
		y, err := Spec("fitted", []Client{c})
		if err != nil {
			t.Fatal(err)
		}
		s, err := spec.Parse(tt.rel, y)
		if err != nil {
			t.Fatalf("%s: emitted spec does not parse: %v\n%s", tt.reason, err, y)
		}
		for _, want := range tt.comments {
			if !strings.Contains(string(y), want) {
				t.Errorf("%s: spec lacks %q:\n%s", tt.reason, want, y)
			}
		}
		got := s.Clients[0]
		if string(got.Arrival.Process) != tt.process {
			t.Errorf("%s: process %q, want %q", tt.reason, got.Arrival.Process, tt.process)
		}
		// The spec reproduces the trace's volume: flat rate or the curve.
		// The spec reproduces the trace's volume: its count over stages
		// whose mass is that count, a step each.
		if got.Arrival.Count != c.Arrivals.N || !within(got.Arrival.Mass(), float64(c.Arrivals.N), 0.001) {
			t.Errorf("%s: count %d over a mass of %g, want %d", tt.reason, got.Arrival.Count, got.Arrival.Mass(), c.Arrivals.N)
		}
		if tt.flat && len(c.Arrivals.Curve.Steps) != 1 {
			t.Errorf("%s: %d steps, want 1", tt.reason, len(c.Arrivals.Curve.Steps))
		}
		// The parsed lengths keep the trace's mean within the clamps' and
		// rounding's error.
		if !within(got.Input.Mean(), c.Lengths.Input.Mean, 0.05) {
			t.Errorf("%s: input mean %g in the spec, %g in the trace", tt.reason, got.Input.Mean(), c.Lengths.Input.Mean)
		}
		// The duration reaches the last arrival, rounded up to the grid.
		end := c.Arrivals.Span
		if c.Arrivals.Grid.Detected {
			end += c.Arrivals.Grid.Period
		}
		if math.Abs(s.Duration.Seconds()-math.Ceil(end)) > 1 {
			t.Errorf("%s: duration %v, want the span %g s", tt.reason, s.Duration, end)
		}
	}
}

func TestSpecSplitsClients(t *testing.T) {
	t.Parallel()
	a := fitClient(t, azureConv, "conversation", true)
	b := fitClient(t, azureCode, "coding", false)
	b.Model = "gpt-4"
	y, err := Spec("azure 2023", []Client{a, b})
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("split", y)
	if err != nil {
		t.Fatalf("emitted spec does not parse: %v\n%s", err, y)
	}
	if len(s.Clients) != 2 || s.Clients[0].Name != "conversation" || s.Clients[1].Model != "gpt-4" || s.Clients[0].Model != "default" {
		t.Errorf("clients %+v, want conversation (model default) and coding (gpt-4)", s.Clients)
	}
	if _, err := Spec("empty", nil); err == nil {
		t.Error("Spec without clients: got no error")
	}
}

func TestClientName(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", "fitted"},             // a client needs a name
		{"Chat_v2.1", "chat_v2.1"}, // lower-cased, allowed punctuation kept
		{"a/b c", "a-b-c"},         // everything else becomes '-'
	}
	for _, tt := range tests {
		if got := clientName(tt.in); got != tt.want {
			t.Errorf("clientName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
