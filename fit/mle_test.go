package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"surge/dist"
)

// draw returns n samples of the distribution kind(p) from a fixed seed.
func draw(t *testing.T, kind string, p dist.Params, n int, seed uint64) []float64 {
	t.Helper()
	d, err := dist.New(kind, p)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = d.Sample(r)
	}
	return xs
}

// within reports whether got is within rel (relative) of want.
func within(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestFittersRecoverParameters(t *testing.T) {
	t.Parallel()
	const n = 20000
	tests := []struct {
		reason string
		kind   string
		p      dist.Params
		fit    func([]float64) (Fit, error)
		want   dist.Params
	}{
		{"exponential rate is 1/mean", "exponential", dist.Params{"rate": 4}, Exponential, dist.Params{"rate": 4}},
		{"gamma with shape below 1 (bursty gaps)", "gamma", dist.Params{"shape": 0.5, "scale": 2}, Gamma, dist.Params{"shape": 0.5, "scale": 2}},
		{"gamma with large shape (regular gaps)", "gamma", dist.Params{"shape": 20, "scale": 0.05}, Gamma, dist.Params{"shape": 20, "scale": 0.05}},
		{"weibull heavy tail", "weibull", dist.Params{"shape": 0.4, "scale": 0.06}, Weibull, dist.Params{"shape": 0.4, "scale": 0.06}},
		{"weibull light tail with large scale", "weibull", dist.Params{"shape": 3, "scale": 5000}, Weibull, dist.Params{"shape": 3, "scale": 5000}},
		{"lognormal in token units", "lognormal", dist.Params{"mu": 8.7, "sigma": 1.2}, LogNormal, dist.Params{"mu": 8.7, "sigma": 1.2}},
		{"moment gamma matches mean and variance of a gamma sample", "gamma", dist.Params{"shape": 2, "scale": 3}, MomentGamma, dist.Params{"shape": 2, "scale": 3}},
	}
	for i, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			f, err := tt.fit(draw(t, tt.kind, tt.p, n, uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range tt.want {
				if !within(f.Params[k], want, 0.04) {
					t.Errorf("%s = %g, want %g ± 4%%", k, f.Params[k], want)
				}
			}
			// A law fitted to its own sample is within the KS critical value.
			if f.KS > 2*KSCritical(n) {
				t.Errorf("KS D = %g, want < %g", f.KS, 2*KSCritical(n))
			}
			if f.N != n || f.Dropped != 0 {
				t.Errorf("N, Dropped = %d, %d; want %d, 0", f.N, f.Dropped, n)
			}
		})
	}
}

func TestFitsAreLikelihoodMaxima(t *testing.T) {
	t.Parallel()
	xs := draw(t, "weibull", dist.Params{"shape": 0.8, "scale": 2}, 5000, 7)
	// Moving the gamma or Weibull MLE shape either way must lower the
	// log-likelihood, since the score equations were solved exactly.
	for _, tt := range []struct {
		reason string
		fit    func([]float64) (Fit, error)
	}{
		{"gamma shape solves ln k − ψ(k) = s", Gamma},
		{"weibull shape solves the profile score", Weibull},
	} {
		f, err := tt.fit(xs)
		if err != nil {
			t.Fatal(err)
		}
		for _, factor := range []float64{0.99, 1.01} {
			p := dist.Params{"shape": f.Params["shape"] * factor, "scale": f.Params["scale"]}
			if ll := logLik(t, f.Family, p, xs); ll >= f.LogLik {
				t.Errorf("%s: shape×%g gives loglik %g ≥ fitted %g", tt.reason, factor, ll, f.LogLik)
			}
		}
	}
}

// logLik evaluates the log-likelihood of a gamma or Weibull law at p.
func logLik(t *testing.T, fam Family, p dist.Params, xs []float64) float64 {
	t.Helper()
	k, s := p["shape"], p["scale"]
	ll := 0.0
	for _, x := range xs {
		switch fam {
		case FamilyGamma:
			lg, _ := math.Lgamma(k)
			ll += (k-1)*math.Log(x) - x/s - lg - k*math.Log(s)
		case FamilyWeibull:
			ll += math.Log(k/s) + (k-1)*math.Log(x/s) - math.Pow(x/s, k)
		default:
			t.Fatalf("no log-likelihood for %s", fam)
		}
	}
	return ll
}

func TestFittersRejectDegenerateSamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason  string
		samples []float64
		tooFew  bool
	}{
		{"no samples", nil, true},
		{"one positive sample; zeros and negatives are dropped", []float64{0, -1, 3}, true},
		{"infinite samples are dropped too", []float64{math.Inf(1), 2}, true},
		{"all samples equal: no spread to fit", []float64{2, 2, 2}, false},
	}
	for _, tt := range tests {
		for _, f := range []func([]float64) (Fit, error){Gamma, Weibull, LogNormal, MomentGamma} {
			_, err := f(tt.samples)
			if err == nil {
				t.Errorf("%s: got no error", tt.reason)
			} else if errors.Is(err, errTooFew) != tt.tooFew {
				t.Errorf("%s: error %v, want too-few %v", tt.reason, err, tt.tooFew)
			}
		}
	}
}

func TestDroppedCountsNonPositive(t *testing.T) {
	t.Parallel()
	f, err := Exponential([]float64{0, 1, 2, 0, 3})
	if err != nil {
		t.Fatal(err)
	}
	if f.N != 3 || f.Dropped != 2 || f.Params["rate"] != 0.5 {
		t.Errorf("got N=%d Dropped=%d rate=%g, want 3, 2, 0.5 (zeros left out)", f.N, f.Dropped, f.Params["rate"])
	}
}

func TestTrigamma(t *testing.T) {
	t.Parallel()
	tests := []struct {
		x, want float64
		reason  string
	}{
		{1, math.Pi * math.Pi / 6, "ψ′(1) = π²/6"},
		{0.5, math.Pi * math.Pi / 2, "ψ′(1/2) = π²/2"},
		{0.01, 10001.62121352835, "small x: dominated by 1/x²"},
		{100, 0.010050166663333571, "large x: the asymptotic series"},
	}
	for _, tt := range tests {
		if got := trigamma(tt.x); !within(got, tt.want, 1e-10) {
			t.Errorf("trigamma(%g) = %.15g, want %.15g (%s)", tt.x, got, tt.want, tt.reason)
		}
	}
}
