package arrival

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"surge/dist"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	s := time.Second
	tests := []struct {
		name   string
		c      Config
		want   []string // one substring per expected error, in order
		reason string
	}{
		{"poisson default", Config{Rate: 5}, nil, `"" means poisson, cv may be left 0`},
		{"poisson cv 1", Config{Process: Poisson, Rate: 5, CV: 1}, nil, "cv 1 is poisson's own cv"},
		{"gamma", Config{Process: Gamma, Rate: 5, CV: 4}, nil, "heavy but allowed"},
		{"weibull", Config{Process: Weibull, Rate: 5, CV: 0.3}, nil, "smooth but allowed"},
		{"constant", Config{Process: Constant, Rate: 5}, nil, "constant needs no cv"},
		{"lognormal", Config{Process: LogNormal, Rate: 5, CV: 3}, nil, "lognormal takes a cv"},
		{"onoff", Config{Process: OnOff, Rate: 5, Burst: 40, Idle: 0.3}, nil, "bursts of 40, idle 30% of the time"},
		{"onoff out of range", Config{Process: OnOff, Rate: 5, CV: 200, Burst: 0, Idle: 1}, []string{"arrival.cv: onoff's gaps within a burst", "arrival.burst: want", "arrival.idle: want"}, "cv, burst and idle out of range"},
		{"idle on gamma", Config{Process: Gamma, Rate: 5, CV: 2, Idle: 0.5}, []string{"arrival.burst, arrival.idle and their cvs and laws: apply to onoff only, not gamma"}, "idle belongs to onoff"},
		{"law on gamma", Config{Process: Gamma, Rate: 5, CV: 2, RateLaw: mustLaw("exponential(mean=1)")}, []string{"apply to onoff only, not gamma"}, "a burst law belongs to onoff"},
		{"onoff laws", Config{Process: OnOff, Rate: 5, Burst: 40, Idle: 0.3, BurstLaw: mustLaw("empirical(p=[0 0.5 1],x=[1 3 40])"), IdleLaw: mustLaw("lognormal(median=5,sigma=1)"), RateLaw: mustLaw("uniform(min=1,max=2)")}, nil, "any law of positive values, scaled by its mean"},
		{"onoff law and cv", Config{Process: OnOff, Rate: 5, Burst: 40, Idle: 0.3, IdleCV: 2, IdleLaw: mustLaw("exponential(mean=3)")}, []string{"arrival.idle_law: conflicts with idle_cv"}, "a law states the whole shape"},
		{"onoff negative law", Config{Process: OnOff, Rate: 5, Burst: 40, Idle: 0.3, BurstLaw: mustLaw("normal(mean=1,sd=1)")}, []string{"arrival.burst_law: normal(mean=1,sd=1) takes values below 0"}, "lengths cannot be negative"},
		{"stages", Config{Curve: Curve{Stages: []Stage{{0, 1}, {s, 0}, {s, 4}}}}, nil, "equal offsets make a step; rate is unset"},
		{"full curve", Config{Curve: Curve{
			Ramp:    &Ramp{From: 0, To: 10, Over: s},
			Diurnal: &Diurnal{Period: time.Hour, PeakToTrough: 1},
			Spikes:  []Spike{{At: 0, Factor: 0.5, For: s}, {At: 0, Factor: 2, For: s}},
		}}, nil, "a ramp from 0, a flat diurnal and overlapping spikes are fine"},
		{"unknown process", Config{Process: "uniform", Rate: 1}, []string{`arrival.process: unknown process "uniform"`}, "typo in the process name"},
		{"zero rate", Config{}, []string{"arrival.rate: must be positive"}, "no rate and no curve"},
		{"negative rate", Config{Rate: -1}, []string{"arrival.rate: must be positive and finite, got -1"}, "negative rate"},
		{"infinite rate", Config{Rate: math.Inf(1)}, []string{"arrival.rate: must be positive and finite"}, "infinite rate"},
		{"nan rate", Config{Rate: math.NaN()}, []string{"arrival.rate: must be positive and finite, got NaN"}, "NaN compares false everywhere"},
		{"gamma without cv", Config{Process: Gamma, Rate: 1}, []string{"arrival.cv: gamma needs a cv between 0.001 and 100, got 0"}, "gamma's cv is required"},
		{"weibull negative cv", Config{Process: Weibull, Rate: 1, CV: -2}, []string{"arrival.cv: weibull needs a cv"}, "cv <= 0"},
		{"gamma huge cv", Config{Process: Gamma, Rate: 1, CV: 1000}, []string{"arrival.cv: gamma needs a cv between"}, "cv above 100"},
		{"burstiness 0", Config{Process: Gamma, Rate: 1, CV: CVFromBurstiness(0)}, []string{"arrival.cv: gamma needs a cv between 0.001 and 100, got NaN"}, "burstiness must be positive"},
		{"poisson cv 2", Config{Rate: 1, CV: 2}, []string{"arrival.cv: poisson gaps have cv 1, got 2"}, "poisson cannot change its cv"},
		{"constant cv", Config{Process: Constant, Rate: 1, CV: 0.1}, []string{"arrival.cv: constant gaps have cv 0"}, "constant cannot have a cv"},
		{"rate with stages", Config{Rate: 3, Curve: Curve{Stages: []Stage{{0, 1}}}}, []string{"arrival.rate: must be unset when arrival.stages gives the rate"}, "stages replace rate"},
		{"rate with ramp", Config{Rate: 3, Curve: Curve{Ramp: &Ramp{From: 1, To: 2, Over: s}}}, []string{"arrival.rate: must be unset when arrival.ramp gives the rate"}, "ramp replaces rate"},
		{"stages and ramp", Config{Curve: Curve{Stages: []Stage{{0, 1}}, Ramp: &Ramp{From: 1, To: 2, Over: s}}}, []string{"arrival.ramp: cannot be combined with arrival.stages"}, "two absolute rates"},
		{"unsorted stages", Config{Curve: Curve{Stages: []Stage{{0, 1}, {3 * s, 2}, {2 * s, 3}}}}, []string{"arrival.stages[2].at: 2s is before arrival.stages[1].at 3s"}, "stages out of order"},
		{"bad stage fields", Config{Curve: Curve{Stages: []Stage{{-s, 1}, {s, -2}, {2 * s, math.Inf(1)}}}}, []string{
			"arrival.stages[0].at: must be >= 0, got -1s",
			"arrival.stages[1].rate: must be finite and >= 0, got -2",
			"arrival.stages[2].rate: must be finite and >= 0, got +Inf",
		}, "every bad stage field is reported, not only the first"},
		{"all stages zero", Config{Curve: Curve{Stages: []Stage{{0, 0}, {s, 0}}}}, []string{"arrival.stages: every rate is 0"}, "a stream without arrivals"},
		{"bad ramp", Config{Curve: Curve{Ramp: &Ramp{From: -1, To: math.NaN(), Over: 0}}}, []string{
			"arrival.ramp.from: must be finite and >= 0, got -1",
			"arrival.ramp.to: must be finite and >= 0, got NaN",
			"arrival.ramp.over: must be positive, got 0s",
		}, "every ramp field wrong"},
		{"zero ramp", Config{Curve: Curve{Ramp: &Ramp{Over: s}}}, []string{"arrival.ramp: from and to are both 0"}, "a ramp that never sends"},
		{"bad diurnal", Config{Rate: 1, Curve: Curve{Diurnal: &Diurnal{Period: -s, PeakToTrough: 0.5, PeakAt: -s}}}, []string{
			"arrival.diurnal.period: must be positive, got -1s",
			"arrival.diurnal.peak_to_trough: must be finite and >= 1, got 0.5",
			"arrival.diurnal.peak_at: must be >= 0, got -1s",
		}, "peak below trough, negative period and phase"},
		{"infinite peak to trough", Config{Rate: 1, Curve: Curve{Diurnal: &Diurnal{Period: s, PeakToTrough: math.Inf(1)}}}, []string{"arrival.diurnal.peak_to_trough: must be finite"}, "a zero trough"},
		{"bad spikes", Config{Rate: 1, Curve: Curve{Spikes: []Spike{{At: s, Factor: 2, For: s}, {At: -s, Factor: 0, For: 0}}}}, []string{
			"arrival.spikes[1].at: must be >= 0, got -1s",
			"arrival.spikes[1].for: must be positive, got 0s",
			"arrival.spikes[1].factor: must be finite and > 0, got 0",
		}, "the second spike is wrong in every field"},
		{"many at once", Config{Process: Gamma, Rate: -1, Curve: Curve{Spikes: []Spike{{Factor: -1, For: s}}}}, []string{
			"arrival.cv: gamma needs a cv",
			"arrival.rate: must be positive",
			"arrival.spikes[0].factor: must be finite and > 0, got -1",
		}, "problems in different parts are all joined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.c.Validate()
			var got []error
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				got = j.Unwrap()
			} else if err != nil {
				got = []error{err}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Validate() = %v; want %d errors (%s)", err, len(tt.want), tt.reason)
			}
			for i, w := range tt.want {
				if msg := got[i].Error(); !strings.Contains(msg, w) || msg != strings.ToLower(msg[:1])+msg[1:] {
					t.Errorf("error %d = %q; want it lowercase and containing %q (%s)", i, msg, w, tt.reason)
				}
			}
			if err != nil && !errors.Is(err, got[0]) {
				t.Errorf("joined error does not wrap its parts")
			}
		})
	}
}

// mustLaw parses a law of package dist or panics.
func mustLaw(s string) dist.Dist {
	d, err := dist.Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}
