package fit

import (
	"math"
	"strings"
	"testing"
)

// The known answers of /work/shared/traces/README.md, computed there with
// independent maximum-likelihood fits (location 0). Parameters must agree
// within 2 %.

const (
	mooncakeSynthetic = "mooncake/synthetic_trace.jsonl"
	mooncakeConv      = "mooncake/conversation_trace.jsonl"
	azureConv         = "azure-llm-2023/AzureLLMInferenceTrace_conv.csv"
	azureCode         = "azure-llm-2023/AzureLLMInferenceTrace_code.csv"
)

// known is one expected value: got must be within rel (relative) or abs
// (absolute) of want, whichever is looser.
type known struct {
	what      string
	got, want float64
	rel, abs  float64
}

func checkKnown(t *testing.T, rows []known) {
	t.Helper()
	for _, r := range rows {
		if tol := math.Max(r.rel*math.Abs(r.want), r.abs); math.Abs(r.got-r.want) > tol {
			t.Errorf("%s = %.5g, want %.5g ± %.3g", r.what, r.got, r.want, tol)
		}
	}
}

// param returns parameter k of family f in c, failing when f was not fitted.
func param(t *testing.T, c Choice, f Family, k string) float64 {
	t.Helper()
	fit, ok := c.Lookup(f)
	if !ok {
		t.Fatalf("%s not fitted", f)
	}
	return fit.Params[k]
}

// ks returns the KS distance of family f in c.
func ks(t *testing.T, c Choice, f Family) float64 {
	t.Helper()
	fit, ok := c.Lookup(f)
	if !ok {
		t.Fatalf("%s not fitted", f)
	}
	return fit.KS
}

func arrivalsOf(t *testing.T, rel string) ArrivalFit {
	t.Helper()
	a, err := Arrivals(loadTrace(t, rel).times, ArrivalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Known answer 2: the synthetic Mooncake arrivals are Poisson. Its 11 tied
// timestamps are left out of the fits; keeping them as zero gaps would give
// rate 3.906/s and no likelihood at all for the other families.
func TestKnownMooncakeSyntheticPoisson(t *testing.T) {
	t.Parallel()
	a := arrivalsOf(t, mooncakeSynthetic)
	g := a.Gaps
	checkKnown(t, []known{
		{"exponential rate", param(t, g, FamilyExponential, "rate"), 3.895, 0.02, 0},
		{"gamma shape", param(t, g, FamilyGamma, "shape"), 1.02, 0.02, 0},
		{"weibull shape", param(t, g, FamilyWeibull, "shape"), 1.00, 0.02, 0},
		{"exponential KS D", ks(t, g, FamilyExponential), 0.011, 0, 0.001},
		{"ties", float64(a.Ties), 11, 0, 0},
	})
	if !a.Poisson || a.Process().Name != "poisson" {
		t.Errorf("Poisson %v, process %+v: the fitter rejects Poisson", a.Poisson, a.Process())
	}
	if a.Grid.Detected {
		t.Errorf("grid detected in millisecond timestamps: %+v", a.Grid)
	}
	if !hasWarning(a.Warnings, "11 of 3992 gaps are zero") {
		t.Errorf("warnings %v, want the ties reported", a.Warnings)
	}
}

// Known answer 3: Azure conversation inter-arrivals.
func TestKnownAzureConversationArrivals(t *testing.T) {
	t.Parallel()
	a := arrivalsOf(t, azureConv)
	g := a.Gaps
	checkKnown(t, []known{
		{"gamma shape", param(t, g, FamilyGamma, "shape"), 0.871, 0.02, 0},
		{"gamma scale (s)", param(t, g, FamilyGamma, "scale"), 0.2076, 0.02, 0},
		{"weibull shape", param(t, g, FamilyWeibull, "shape"), 0.922, 0.02, 0},
		{"weibull scale (s)", param(t, g, FamilyWeibull, "scale"), 0.1742, 0.02, 0},
		{"lognormal mu", param(t, g, FamilyLogNormal, "mu"), -2.384, 0.02, 0},
		{"lognormal sigma", param(t, g, FamilyLogNormal, "sigma"), 1.481, 0.02, 0},
		{"exponential KS D", ks(t, g, FamilyExponential), 0.022, 0, 0.001},
		{"gap CV", a.CV, 1.09, 0.02, 0},
	})
	if g.Grade != Good {
		t.Errorf("grade %v for best %v, want good", g.Grade, g.Best)
	}
}

// Known answer 4: Azure coding arrivals are on/off; no single law fits and
// the fit must say so.
func TestKnownAzureCodingPoor(t *testing.T) {
	t.Parallel()
	a := arrivalsOf(t, azureCode)
	g := a.Gaps
	if g.Best.Family != FamilyWeibull || g.Grade != Poor {
		t.Errorf("best %v graded %v, want weibull graded poor", g.Best, g.Grade)
	}
	if g.Use != g.Empirical {
		t.Errorf("use %v, want the empirical table for a poor fit", g.Use)
	}
	checkKnown(t, []known{
		{"weibull shape", param(t, g, FamilyWeibull, "shape"), 0.419, 0.02, 0},
		{"best KS D", g.Best.KS, 0.14, 0, 0.005},
		{"gamma shape", param(t, g, FamilyGamma, "shape"), 0.231, 0.02, 0},
		{"gamma scale (s)", param(t, g, FamilyGamma, "scale"), 1.685, 0.02, 0},
		{"moment gamma shape", param(t, g, FamilyGammaMoments, "shape"), 0.0058, 0.02, 0},
		{"gap CV", a.CV, 13, 0.02, 0},
		{"empty minutes", float64(a.OnOff.Empty), 12, 0, 0},
		{"whole minutes", float64(a.OnOff.Bins), 57, 0, 0},
	})
	if !a.OnOff.Detected {
		t.Errorf("on/off not detected: %+v", a.OnOff)
	}
	if !hasWarning(a.Warnings, "on/off") || !hasWarning(a.Warnings, "no single law fits the gaps") {
		t.Errorf("warnings %v, want on/off and the poor fit", a.Warnings)
	}
}

// hasWarning reports whether some warning contains text.
func hasWarning(ws []error, text string) bool {
	for _, w := range ws {
		if strings.Contains(w.Error(), text) {
			return true
		}
	}
	return false
}

// Known answer 5: Mooncake conversation timestamps sit on a 3 s grid.
func TestKnownMooncakeConversationGrid(t *testing.T) {
	t.Parallel()
	a := arrivalsOf(t, mooncakeConv)
	if !a.Grid.Detected {
		t.Fatalf("grid not detected: %+v", a.Grid)
	}
	checkKnown(t, []known{
		{"period (s)", a.Grid.Period, 3, 0.001, 0},
		{"zero-gap share", a.Grid.ZeroShare, 0.90, 0.01, 0},
		{"requests per slot", a.Grid.PerSlot, 10.2, 0.01, 0},
		{"per-slot dispersion", a.Grid.Dispersion, 1.1, 0.02, 0},
	})
	if a.Poisson || a.Process().Name != "poisson" {
		t.Errorf("Poisson %v (the gap fit must not be trusted on a grid), process %+v (want poisson from the slot counts)", a.Poisson, a.Process())
	}
}

func lengthsOf(t *testing.T, rel string) LengthFit {
	t.Helper()
	tr := loadTrace(t, rel)
	l, err := Lengths(tr.in, tr.out)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Known answer 8: input length fits.
func TestKnownLengthFits(t *testing.T) {
	t.Parallel()
	conv := lengthsOf(t, azureConv).Input.Choice
	moon := lengthsOf(t, mooncakeConv).Input.Choice
	checkKnown(t, []known{
		{"azure conversation input gamma shape", param(t, conv, FamilyGamma, "shape"), 1.338, 0.02, 0},
		{"azure conversation input gamma scale", param(t, conv, FamilyGamma, "scale"), 863.3, 0.02, 0},
		{"azure conversation input lognormal mu", param(t, conv, FamilyLogNormal, "mu"), 6.633, 0.02, 0},
		{"azure conversation input lognormal sigma", param(t, conv, FamilyLogNormal, "sigma"), 0.985, 0.02, 0},
		{"mooncake conversation input lognormal mu", param(t, moon, FamilyLogNormal, "mu"), 8.737, 0.02, 0},
		{"mooncake conversation input lognormal sigma", param(t, moon, FamilyLogNormal, "sigma"), 1.199, 0.02, 0},
		{"mooncake conversation input lognormal KS D", ks(t, moon, FamilyLogNormal), 0.067, 0, 0.001},
	})
}

// Known answer 9: input and output are only weakly correlated in the
// production traces.
func TestKnownWeakLengthDependence(t *testing.T) {
	t.Parallel()
	for _, rel := range []string{azureConv, azureCode, mooncakeConv} {
		l := lengthsOf(t, rel)
		if math.Abs(l.Pearson) > 0.12 || math.Abs(l.Spearman) > 0.12 {
			t.Errorf("%s: Pearson %.3f Spearman %.3f, want both within ±0.12", rel, l.Pearson, l.Spearman)
		}
		if hasWarning(l.Warnings, "dependent") {
			t.Errorf("%s: warns of dependence at Spearman %.3f", rel, l.Spearman)
		}
	}
	// The synthetic Mooncake trace is not production data: its long prompts
	// get short answers, a dependence the spec cannot state, so it warns.
	if l := lengthsOf(t, mooncakeSynthetic); l.Spearman > -DependentSpearman || !hasWarning(l.Warnings, "dependent") {
		t.Errorf("mooncake synthetic: Spearman %.3f, warnings %v; want a strong negative dependence, warned", l.Spearman, l.Warnings)
	}
}
