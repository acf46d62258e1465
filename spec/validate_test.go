package spec

import (
	"fmt"
	"strings"
	"testing"

	"surge/arrival"
)

func TestLoadRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		src    string
		wants  []want
	}{
		{"rate and concurrency", closedHead + "  - {name: a, model: m, rate: 1/s, concurrency: 2, input: 1, output: 1}\n",
			[]want{{"4:36: clients[0].concurrency", "conflicts with rate: a closed-loop client"}}},
		{"arrival and concurrency", closedHead + "  - {name: a, model: m, concurrency: 2, arrival: {process: poisson}, input: 1, output: 1}\n",
			[]want{{"4:25: clients[0].concurrency", "conflicts with arrival"}}},
		{"rate and weight", head + "  - {name: a, model: m, rate: 1/s, weight: 2, input: 1, output: 1}\n",
			[]want{{"4:36: clients[0].weight", "conflicts with rate: weight splits the top-level rate"}}},
		{"weight with a ramp", head + "  - {name: a, model: m, weight: 2, arrival: {ramp: {from: 1, to: 2, over: 1m}}, input: 1, output: 1}\n",
			[]want{{"4:25: clients[0].weight", "has no effect: arrival.ramp sets this client's rate"}}},
		{"no rate at all", head + "  - {name: a, model: m, input: 1, output: 1}\n",
			[]want{{"4:5: clients[0]", "no rate: give rate, concurrency, arrival.stages or arrival.ramp, or a top-level rate to share"}}},
		{"top-level rate nobody shares", "version: 1\nrequests: 10\nrate: 5/s\nclients:\n  - {name: a, model: m, concurrency: 1, input: 1, output: 1}\n",
			[]want{{"3:1: rate", "no client takes a share of it"}}},
		{"top-level rate of zero", "version: 1\nduration: 1m\nrate: 0\nclients:\n  - {name: a, model: m, input: 1, output: 1}\n",
			[]want{{"3:7: rate", "rate must be > 0"}}},
		{"a bad rate is reported once, not again as a missing rate", head + "  - {name: a, model: m, rate: soon, input: 1, output: 1}\n",
			[]want{{"4:31: clients[0].rate", "expected a rate like 5/s"}}},
		{"closed and open clients together", "version: 1\nrequests: 10\nclients:\n" +
			"  - {name: a, model: m, concurrency: 1, weight: 3, input: 1, output: 1}\n" +
			"  - {name: b, model: m, rate: 2/s, input: 1, output: 1}\n", nil},
		{"closed loop without requests: validate must catch what gen would refuse", head +
			"  - {name: a, model: m, concurrency: 4, input: 1, output: 1}\n",
			[]want{{"4:25: clients[0].concurrency", "a closed-loop client needs requests: the number of sessions to generate (top-level requests)"}}},
		{"--requests on gen cannot stand in for requests: validate sees the spec alone", "version: 1\nduration: 1m\nrate: 2/s\nclients:\n" +
			"  - {name: a, model: m, input: 1, output: 1}\n" +
			"  - {name: b, model: m, concurrency: 4, input: 1, output: 1}\n",
			[]want{{"6:25: clients[1].concurrency", "needs requests"}}},
		{"a requests value that fails to decode is not also reported missing", "version: 1\nrequests: lots\nclients:\n" +
			"  - {name: a, model: m, concurrency: 4, input: 1, output: 1}\n",
			[]want{{"2:11: requests", "expected a count"}}},
		{"with a closed-loop client, a weight beside a rate is its share of requests", closedHead +
			"  - {name: a, model: m, rate: 2/s, weight: 3, input: 1, output: 1}\n" +
			"  - {name: b, model: m, concurrency: 1, input: 1, output: 1}\n", nil},
		{"with a closed-loop client, a weight beside stages counts too", closedHead +
			"  - {name: a, model: m, weight: 3, arrival: {stages: [{at: 0s, rate: 1/s}]}, input: 1, output: 1}\n" +
			"  - {name: b, model: m, concurrency: 1, input: 1, output: 1}\n", nil},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, tt.src, tt.wants...)
	}
}

// closedHead is head for specs with a closed-loop client, which need
// requests; its line numbers match head's.
const closedHead = "version: 1\nrequests: 10\nclients:\n"

func TestRateShares(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(`version: 1
requests: 100
rate: 20/s
clients:
  - {name: a, model: m, weight: 3, input: 1, output: 1}
  - {name: b, model: m, input: 1, output: 1}
  - {name: c, model: m, rate: 7/s, input: 1, output: 1}
  - {name: d, model: m, concurrency: 2, weight: 5, input: 1, output: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	// Only a and b share the top-level rate: 20 × 3/4 and 20 × 1/4.
	want := []float64{15, 5, 7, 0}
	for i, c := range s.Clients {
		if c.Arrival.Rate != want[i] {
			t.Errorf("client %s rate %v, want %v", c.Name, c.Arrival.Rate, want[i])
		}
	}
}

func TestValidateArrivalMapsPositions(t *testing.T) {
	t.Parallel()
	d := &decoder{file: "t.yaml"}
	root := d.document([]byte(head + `  - name: a
    model: m
    input: 1
    output: 1
    arrival:
      stages: [{at: 0s, rate: 1/s}, {at: 1m, rate: 2/s}]
`))
	d.collectAnchors(root)
	o, _ := d.object(root, "")
	items, _ := d.list(o.vals["clients"], "clients")
	obj, _ := d.object(items[0], "clients[0]")
	// A config the decoder never builds, to reach package arrival's own
	// checks: a cv on poisson and stages out of order.
	c := Client{Arrival: arrival.Config{Process: arrival.Poisson, CV: 5, Curve: arrival.Curve{
		Stages: []arrival.Stage{{At: 60e9, Rate: 1}, {At: 0, Rate: 1}},
	}}}
	d.validateArrival(c, &clientSource{obj: obj})
	wants := []string{
		"t.yaml:9:7: clients[0].arrival.cv: poisson gaps have cv 1", // no cv key: the arrival block
		"t.yaml:9:42: clients[0].arrival.stages[1].at: 0s is before",
	}
	es := d.errs.sorted()
	if len(es) != len(wants) {
		t.Fatalf("got %d problems, want %d:\n%v", len(es), len(wants), es)
	}
	for i, w := range wants {
		if got := es[i].Error(); !strings.HasPrefix(got, w) {
			t.Errorf("problem %d is %q, want it to start with %q", i, got, w)
		}
	}
}

func TestLocate(t *testing.T) {
	t.Parallel()
	d := &decoder{file: "t.yaml"}
	root := d.document([]byte(`a:
  b: [{c: 1}, {c: 2}]
  e: &x {f: 3}
g: *x
`))
	d.collectAnchors(root)
	o, _ := d.object(root, "")
	tests := []struct {
		rel, want string
		reason    string
	}{
		{"a.b[1].c", "2:19", "into a list item"},
		{"a.b[7].c", "2:6", "index past the end stops at the list"},
		{"a.e.f", "3:13", "through an anchor"},
		{"g.f", "3:13", "through an alias"},
		{"a.zz", "2:3", "unknown key stops at the mapping"},
	}
	for _, tt := range tests {
		line, col := pos(d.locate(o, tt.rel))
		if got := fmt.Sprintf("%d:%d", line, col); got != tt.want {
			t.Errorf("%s: locate(%s) at %s, want %s", tt.reason, tt.rel, got, tt.want)
		}
	}
	if len(d.errs) != 0 {
		t.Errorf("locate reported problems: %v", d.errs)
	}
}
