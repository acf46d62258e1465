package dist

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

var (
	_ model = (*gamma)(nil)
	_ model = (*weibull)(nil)
)

// gamma has shape k and scale θ; for mean m and coefficient of variation cv,
// k = 1/cv² and θ = m cv². With P the regularised lower incomplete gamma,
//
//	F(x) = P(k, x/θ),  mean = kθ,  E[X; X <= x] = kθ P(k+1, x/θ).
type gamma struct {
	named
	g distuv.Gamma // Alpha = k, Beta = 1/θ
}

func buildGamma(form int, v []float64, n named) (model, error) {
	if err := positives("gamma", n.keys, v); err != nil {
		return nil, err
	}
	shape, scale := v[0], v[1]
	if form == 0 { // mean, cv
		cv2 := v[1] * v[1]
		shape, scale = 1/cv2, v[0]*cv2
	}
	return &gamma{n, distuv.Gamma{Alpha: shape, Beta: 1 / scale}}, nil
}

func (d *gamma) Sample(r *rand.Rand) float64 { g := d.g; g.Src = r; return g.Rand() }
func (d *gamma) Mean() float64               { return d.g.Alpha / d.g.Beta }
func (d *gamma) String() string              { return callString(d) }
func (d *gamma) CDF(x float64) float64       { return d.g.CDF(x) }

// Quantile inverts F with gonum, and when that misses (it returns 0 for
// small shapes and small p, where Q(p) is tiny but positive) bisects ln x
// instead, starting from x_0 = (p Γ(k+1))^{1/k}: since e^{-t} <= 1,
// P(k, x) <= x^k/Γ(k+1), so P(k, x_0) <= p and x_0 <= Q(p).
func (d *gamma) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	a := d.g.Alpha
	x := mathext.GammaIncRegInv(a, p)
	if p == 0 || p == 1 || (x > 0 && math.Abs(mathext.GammaIncReg(a, x)-p) <= 1e-10*p) {
		return x / d.g.Beta
	}
	lo := math.Max(math.Pow(p*math.Gamma(a+1), 1/a), math.SmallestNonzeroFloat64)
	hi := lo
	for mathext.GammaIncReg(a, hi) < p {
		hi *= 2
	}
	for range 200 { // P(k, lo) <= p <= P(k, hi)
		mid := math.Sqrt(lo) * math.Sqrt(hi)
		if mid <= lo || mid >= hi {
			break
		}
		if mathext.GammaIncReg(a, mid) >= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi / d.g.Beta
}

func (d *gamma) partialMean(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return d.Mean() * mathext.GammaIncReg(d.g.Alpha+1, x*d.g.Beta)
}

// weibull has shape k and scale λ:
//
//	F(x) = 1 - e^{-(x/λ)^k},  mean = λ Γ(1+1/k),
//	E[X; X <= x] = λ Γ(1+1/k) P(1+1/k, (x/λ)^k),
//
// and cv² = Γ(1+2/k)/Γ(1+1/k)² - 1, which falls as k grows; the mean, cv
// form solves it for k by bisection on ln k, then λ = mean/Γ(1+1/k).
type weibull struct {
	named
	w distuv.Weibull
}

// Bounds of the shape WeibullShape can solve for: k = 10⁴ has cv ≈ 1.3e-4,
// where ln(1+cv²) ≈ 1.6e-8 is still computed to about 1e-12 relative
// (ln Γ near 1 is accurate to ~1e-20 absolute); below k = 0.02 cv exceeds
// 1e14.
const (
	weibullMinShape = 0.02
	weibullMaxShape = 1e4
)

func buildWeibull(form int, v []float64, n named) (model, error) {
	if err := positives("weibull", n.keys, v); err != nil {
		return nil, err
	}
	if form == 0 { // shape, scale
		return &weibull{n, distuv.Weibull{K: v[0], Lambda: v[1]}}, nil
	}
	k, err := WeibullShape(v[1])
	if err != nil {
		return nil, err
	}
	return &weibull{n, distuv.Weibull{K: k, Lambda: v[0] / math.Gamma(1+1/k)}}, nil
}

// weibullLogCV2 is ln(1+cv²) = ln Γ(1+2/k) - 2 ln Γ(1+1/k) for shape k.
func weibullLogCV2(k float64) float64 {
	g2, _ := math.Lgamma(1 + 2/k)
	g1, _ := math.Lgamma(1 + 1/k)
	return g2 - 2*g1
}

// WeibullShape returns the shape k of the Weibull law whose coefficient of
// variation is cv, solving ln(1+cv²) = ln Γ(1+2/k) − 2 ln Γ(1+1/k) by
// bisection on ln k. The CV falls strictly as k grows; cv must lie between
// about 1.3e-4 (k = 10⁴) and 3e14 (k = 0.02).
func WeibullShape(cv float64) (float64, error) {
	target := math.Log1p(cv * cv)
	lo, hi := math.Log(weibullMinShape), math.Log(weibullMaxShape)
	if target > weibullLogCV2(weibullMinShape) || target < weibullLogCV2(weibullMaxShape) {
		cvMin := math.Sqrt(math.Expm1(weibullLogCV2(weibullMaxShape)))
		cvMax := math.Sqrt(math.Expm1(weibullLogCV2(weibullMinShape)))
		return 0, fmt.Errorf("weibull: cv must be between %.3g and %.3g, got %s", cvMin, cvMax, fmtNum(cv))
	}
	for range 100 { // halves the bracket of width ln(5e4) to far below 1 ulp
		mid := (lo + hi) / 2
		if weibullLogCV2(math.Exp(mid)) > target {
			lo = mid // cv too large: the shape must grow
		} else {
			hi = mid
		}
	}
	return math.Exp((lo + hi) / 2), nil
}

func (d *weibull) Sample(r *rand.Rand) float64 { w := d.w; w.Src = r; return w.Rand() }
func (d *weibull) Mean() float64               { return d.w.Mean() }
func (d *weibull) String() string              { return callString(d) }
func (d *weibull) CDF(x float64) float64       { return d.w.CDF(x) }

func (d *weibull) Quantile(p float64) float64 {
	if !validP(p) {
		return math.NaN()
	}
	return d.w.Quantile(p)
}

func (d *weibull) partialMean(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return d.Mean() * mathext.GammaIncReg(1+1/d.w.K, math.Pow(x/d.w.Lambda, d.w.K))
}
