package sweep

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"surge/arrival"
	"surge/spec"
)

// OfferedRate is the total mean arrival rate of s's open-loop clients,
// in requests per second: each client's expected arrivals over the spec's
// duration divided by it, or its flat rate when the spec gives a request
// count instead (a rate curve then needs a duration). It is 0 when every
// client is closed loop.
func OfferedRate(s *spec.Spec) (float64, error) {
	var total float64
	for _, c := range s.Clients {
		if c.Concurrency > 0 {
			continue
		}
		a := c.Arrival
		switch {
		case s.Duration > 0:
			total += a.Cumulative(s.Duration) / s.Duration.Seconds()
		case a.Curve.Stages == nil && a.Curve.Ramp == nil && a.Curve.Diurnal == nil && a.Curve.Spikes == nil:
			total += a.Rate
		default:
			return 0, fmt.Errorf("client %q: a rate curve has a mean rate only over a duration: give the spec a duration (or --duration)", c.Name)
		}
	}
	return total, nil
}

// AtRate returns a copy of s whose open-loop clients together offer rate
// requests per second: each client's rate, stages and ramp are scaled by
// rate / OfferedRate(s), which keeps their shares, burstiness and curve
// shapes. Closed-loop clients are kept as they are.
func AtRate(s *spec.Spec, rate float64) (*spec.Spec, error) {
	if !(rate > 0) || math.IsInf(rate, 0) {
		return nil, fmt.Errorf("rate %g: want a positive rate", rate)
	}
	base, err := OfferedRate(s)
	if err != nil {
		return nil, err
	}
	if base <= 0 {
		return nil, errors.New("no open-loop client: a rate sweep needs clients with a rate (or sweep --concurrency)")
	}
	out := *s
	out.Clients = slices.Clone(s.Clients)
	f := rate / base
	for i := range out.Clients {
		if out.Clients[i].Concurrency == 0 {
			out.Clients[i].Arrival = scaled(out.Clients[i].Arrival, f)
		}
	}
	out.Rate = 0 // already folded into the clients by Parse
	return &out, nil
}

// scaled multiplies a's absolute rates by f; diurnal and spike factors
// multiply whatever rate is in force and stay.
func scaled(a arrival.Config, f float64) arrival.Config {
	a.Rate *= f
	if a.Curve.Stages != nil {
		st := slices.Clone(a.Curve.Stages)
		for i := range st {
			st[i].Rate *= f
		}
		a.Curve.Stages = st
	}
	if r := a.Curve.Ramp; r != nil {
		a.Curve.Ramp = &arrival.Ramp{From: r.From * f, To: r.To * f, Over: r.Over}
	}
	return a
}

// AtConcurrency returns a copy of s run closed loop with n requests in
// flight in all: every client becomes closed loop, taking a share of n
// proportional to its offered rate (its weight for clients already
// closed loop), at least 1 each. requests is the number of sessions to
// generate; 0 keeps the spec's, or without one the expected count of its
// schedule.
func AtConcurrency(s *spec.Spec, n, requests int) (*spec.Spec, error) {
	if n < len(s.Clients) {
		return nil, fmt.Errorf("concurrency %d: want at least one per client (%d clients)", n, len(s.Clients))
	}
	if requests <= 0 {
		requests = s.Requests
	}
	if requests <= 0 {
		r, err := OfferedRate(s)
		if err != nil {
			return nil, err
		}
		requests = int(math.Round(r * s.Duration.Seconds()))
	}
	if requests <= 0 {
		return nil, errors.New("closed loop needs a request count: give the spec requests (or --requests)")
	}
	out := *s
	out.Clients = slices.Clone(s.Clients)
	out.Requests, out.Duration, out.Rate = requests, 0, 0
	shares := concurrencyShares(s, n)
	for i := range out.Clients {
		c := &out.Clients[i]
		c.Concurrency, c.Arrival = shares[i], arrival.Config{}
		c.Weight = float64(shares[i])
	}
	return &out, nil
}

// concurrencyShares splits n across s's clients in proportion to their
// load (offered rate, or weight for a closed-loop client), by largest
// remainder after giving each client one.
func concurrencyShares(s *spec.Spec, n int) []int {
	w := make([]float64, len(s.Clients))
	var sum float64
	for i, c := range s.Clients {
		w[i] = c.Weight
		if c.Concurrency == 0 && c.Arrival.Rate > 0 {
			w[i] = c.Arrival.Rate
		}
		sum += w[i]
	}
	shares := make([]int, len(w))
	rest := n - len(w)
	type rem struct {
		i int
		r float64
	}
	rems := make([]rem, len(w))
	left := rest
	for i := range w {
		exact := float64(rest) * w[i] / sum
		shares[i] = 1 + int(exact)
		left -= int(exact)
		rems[i] = rem{i, exact - math.Floor(exact)}
	}
	slices.SortStableFunc(rems, func(a, b rem) int { return cmpFloat(b.r, a.r) })
	for k := 0; k < left; k++ {
		shares[rems[k].i]++
	}
	return shares
}
