package spec

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"surge/arrival"
)

// withArrival is a one-client spec whose arrival block starts on line 10;
// rate is the client's rate line ("" for none).
func withArrival(rate, block string) string {
	src := head + "  - name: a\n    model: m\n    input: 1\n"
	if rate != "" {
		src += "    rate: " + rate + "\n"
	} else {
		src += "    prompt: mixed\n"
	}
	return src + "    output: 1\n    arrival:\n" + block
}

func TestArrivalDecode(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(withArrival("", `      process: gamma
      burstiness: 0.25
      stages: [{at: 0s, rate: 2/s}, {at: 5m, rate: 300/m}, {at: 5m, rate: 0}]
      diurnal: {period: 1d, peak_to_trough: 4, peak_at: 14h}
      spikes: [{at: 2m, factor: 5, for: 30s}]
`)))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Clients[0].Arrival
	if a.Process != arrival.Gamma || a.CV != 2 || a.Rate != 0 {
		t.Errorf("process %s cv %v rate %v; want gamma, 2 (= 1/√0.25), 0 (stages give the rate)", a.Process, a.CV, a.Rate)
	}
	wantStages := []arrival.Stage{{At: 0, Rate: 2}, {At: 5 * time.Minute, Rate: 5}, {At: 5 * time.Minute, Rate: 0}}
	if !slices.Equal(a.Curve.Stages, wantStages) {
		t.Errorf("stages %v, want %v", a.Curve.Stages, wantStages)
	}
	if d := a.Curve.Diurnal; d == nil || *d != (arrival.Diurnal{Period: 24 * time.Hour, PeakToTrough: 4, PeakAt: 14 * time.Hour}) {
		t.Errorf("diurnal %+v", d)
	}
	if sp := a.Curve.Spikes; len(sp) != 1 || sp[0] != (arrival.Spike{At: 2 * time.Minute, Factor: 5, For: 30 * time.Second}) {
		t.Errorf("spikes %+v", sp)
	}
	if err := a.Validate(); err != nil {
		t.Errorf("package arrival rejects what spec accepted: %v", err)
	}
}

// TestArrivalOnOff reads an on/off process and a lognormal one.
func TestArrivalOnOff(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(withArrival("2/s", "      process: onoff\n      burst: 40\n      idle: 30%\n      cv: 3\n      burst_cv: 2.5\n      idle_cv: 4\n      rate_cv: 0.7\n")))
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Clients[0].Arrival; a.Process != arrival.OnOff || a.Burst != 40 || a.Idle != 0.3 || a.CV != 3 || a.BurstCV != 2.5 || a.IdleCV != 4 || a.RateCV != 0.7 || a.Validate() != nil {
		t.Errorf("arrival %+v (%v); want onoff, burst 40, idle 0.3, cv 3, burst_cv 2.5, idle_cv 4, rate_cv 0.7", a, a.Validate())
	}
	s, err = Parse("t.yaml", []byte(withArrival("2/s", "      process: onoff\n      burst: 40\n      idle: 30%\n"+
		"      burst_law: \"empirical(p=[0 0.5 1],x=[1 2 9])\"\n      idle_law: exponential(mean=4)\n      rate_law: {dist: uniform, min: 1, max: 3}\n")))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Clients[0].Arrival
	if a.BurstLaw == nil || a.IdleLaw == nil || a.RateLaw == nil || a.RateLaw.Mean() != 2 || a.Validate() != nil {
		t.Errorf("arrival %+v (%v); want the three laws, the rate's of mean 2", a, a.Validate())
	}
	if c := string(s.Canonical()); !strings.Contains(c, `burst_law: "empirical(p=[0 0.5 1],x=[1 2 9])"`) || !strings.Contains(c, `rate_law: "uniform(min=1,max=3)"`) {
		t.Errorf("canonical form lacks the laws:\n%s", c)
	}
	s, err = Parse("t.yaml", []byte(withArrival("2/s", "      process: lognormal\n      cv: 3\n")))
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Clients[0].Arrival; a.Process != arrival.LogNormal || a.CV != 3 {
		t.Errorf("arrival %+v; want lognormal, cv 3", a)
	}
}

// TestArrivalCount reads an exact count over stages that end.
func TestArrivalCount(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(withArrival("", "      stages: [{at: 0s, rate: 2/s}, {at: 1m, rate: 2/s}, {at: 1m, rate: 0}]\n      count: 1k\n")))
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Clients[0].Arrival; a.Count != 1000 || a.Validate() != nil {
		t.Errorf("arrival %+v (%v); want count 1000", a, a.Validate())
	}
}

func TestArrivalErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		rate   string
		block  string
		wants  []want
	}{
		{"process typo", "1/s", "      process: possion\n",
			[]want{{"10:16: clients[0].arrival.process", `unknown process possion (did you mean "poisson"?)`}}},
		{"a misspelt process is not judged further", "1/s", "      process: gama\n      cv: 3\n",
			[]want{{"10:16: clients[0].arrival.process", `did you mean "gamma"?`}}},
		{"cv and burstiness", "1/s", "      process: gamma\n      cv: 2\n      burstiness: 0.25\n",
			[]want{{"12:7: clients[0].arrival.burstiness", "conflicts with cv"}}},
		{"cv on poisson", "1/s", "      process: poisson\n      cv: 2\n",
			[]want{{"11:11: clients[0].arrival.cv", "cv applies to gamma, weibull, lognormal and onoff only (poisson gaps have a fixed cv)"}}},
		{"cv with the default process", "1/s", "      cv: 2\n",
			[]want{{"10:11: clients[0].arrival.cv", "add process: gamma"}}},
		{"cv out of range", "1/s", "      process: weibull\n      cv: 1k\n",
			[]want{{"11:11: clients[0].arrival.cv", "cv must be between 0.001 and 100, got 1000"}}},
		{"burstiness on weibull", "1/s", "      process: weibull\n      burstiness: 2\n",
			[]want{{"11:19: clients[0].arrival.burstiness", "burstiness is the shape of gamma gaps (add process: gamma)"}}},
		{"negative burstiness", "1/s", "      process: gamma\n      burstiness: -1\n",
			[]want{{"11:19: clients[0].arrival.burstiness", "burstiness must be > 0, got -1"}}},
		{"onoff without its idle share", "1/s", "      process: onoff\n      burst: 0\n",
			[]want{{"10:7: clients[0].arrival", "missing key idle"}, {"11:14: clients[0].arrival.burst", "burst must be in (0, 1e+06], got 0"}}},
		{"idle on gamma", "1/s", "      process: gamma\n      cv: 2\n      idle: 50%\n",
			[]want{{"12:13: clients[0].arrival.idle", "idle applies to onoff only (add process: onoff)"}}},
		{"idle_cv on gamma", "1/s", "      process: gamma\n      cv: 2\n      idle_cv: 3\n",
			[]want{{"12:16: clients[0].arrival.idle_cv", "idle_cv applies to onoff only (add process: onoff)"}}},
		{"onoff burst_cv of 0", "1/s", "      process: onoff\n      burst: 4\n      idle: 50%\n      burst_cv: 0\n",
			[]want{{"13:17: clients[0].arrival.burst_cv", "burst_cv must be between 0.001 and 100 (1: exponential burst lengths), got 0"}}},
		{"a law and its cv", "1/s", "      process: onoff\n      burst: 4\n      idle: 50%\n      idle_cv: 2\n      idle_law: exponential(mean=3)\n",
			[]want{{"14:7: clients[0].arrival.idle_law", "conflicts with idle_cv: a law states the whole shape; give one"}}},
		{"a law below 0", "1/s", "      process: onoff\n      burst: 4\n      idle: 50%\n      rate_law: normal(mean=1,sd=2)\n",
			[]want{{"13:7: clients[0].arrival.rate_law", "takes values below 0"}}},
		{"a law on gamma", "1/s", "      process: gamma\n      cv: 2\n      burst_law: exponential(mean=3)\n",
			[]want{{"12:18: clients[0].arrival.burst_law", "burst_law applies to onoff only (add process: onoff)"}}},
		{"onoff idle all the time", "1/s", "      process: onoff\n      burst: 4\n      idle: 100%\n",
			[]want{{"12:13: clients[0].arrival.idle", "idle must be strictly between 0 and 100%, got 1"}}},
		{"a count without a curve", "1/s", "      count: 100\n",
			[]want{{"10:14: clients[0].arrival.count", "count spreads its arrivals over a rate curve that ends at rate 0"}}},
		{"a count over a curve that never ends", "", "      stages: [{at: 0s, rate: 1/s}]\n      count: 100\n",
			[]want{{"11:14: clients[0].arrival.count", "count needs the rate curve to end at rate 0"}}},
		{"gamma without cv", "1/s", "      process: gamma\n",
			[]want{{"10:7: clients[0].arrival.process", "gamma gaps need cv"}}},
		{"stages out of order and all zero", "", "      stages: [{at: 1m, rate: 0}, {at: 0s, rate: 0/s}]\n",
			[]want{
				{"10:15: clients[0].arrival.stages", "every stage has rate 0"},
				{"10:40: clients[0].arrival.stages[1].at", "stage at 0s comes before the previous stage at 1m"},
			}},
		{"stage missing its rate", "", "      stages: [{at: 1m}]\n",
			[]want{{"10:16: clients[0].arrival.stages[0]", "missing key rate"}}},
		{"stage with a typo", "", "      stages: [{at: 1m, rat: 2/s}]\n",
			[]want{
				{"10:16: clients[0].arrival.stages[0]", "missing key rate"},
				{"10:25: clients[0].arrival.stages[0].rat", `did you mean "rate"?`},
			}},
		{"empty stages", "", "      stages: []\n",
			[]want{{"10:15: clients[0].arrival.stages", "needs at least one stage"}}},
		{"stages and ramp", "", "      stages: [{at: 0s, rate: 1/s}]\n      ramp: {from: 1/s, to: 2/s, over: 1m}\n",
			[]want{{"11:7: clients[0].arrival.ramp", "conflicts with stages"}}},
		{"ramp problems", "", "      ramp: {from: 0/s, to: 0, over: 0s}\n",
			[]want{
				{"10:13: clients[0].arrival.ramp", "from and to are both 0"},
				{"10:38: clients[0].arrival.ramp.over", "over must be > 0"},
			}},
		{"diurnal problems", "1/s", "      diurnal: {period: 0s, peak_to_trough: 0.5}\n",
			[]want{
				{"10:25: clients[0].arrival.diurnal.period", "period must be > 0"},
				{"10:45: clients[0].arrival.diurnal.peak_to_trough", "peak_to_trough must be ≥ 1, got 0.5"},
			}},
		{"spike problems", "1/s", "      spikes: [{at: 1m, factor: 0, for: 0s}, {factor: 2, for: 1s}]\n",
			[]want{
				{"10:33: clients[0].arrival.spikes[0].factor", "factor must be > 0, got 0"},
				{"10:41: clients[0].arrival.spikes[0].for", "for must be > 0"},
				{"10:46: clients[0].arrival.spikes[1]", "missing key at"},
			}},
		{"arrival is not a mapping", "1/s", "      - poisson\n",
			[]want{{"10:7: clients[0].arrival", "expected a mapping, got a list"}}},
		{"rate and stages", "1/s", "      stages: [{at: 0s, rate: 1/s}]\n",
			[]want{{"10:7: clients[0].arrival.stages", "conflicts with rate: stages set the rate"}}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, withArrival(tt.rate, tt.block), tt.wants...)
	}
}

func TestBurstinessIsGammaShape(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(withArrival("1/s", "      process: gamma\n      burstiness: 0.111\n")))
	if err != nil {
		t.Fatal(err)
	}
	// vLLM's burstiness b is the gamma shape k, so cv = 1/√b.
	if got, want := s.Clients[0].Arrival.CV, 1/math.Sqrt(0.111); math.Abs(got-want) > 1e-12 {
		t.Errorf("cv = %v, want %v", got, want)
	}
}
