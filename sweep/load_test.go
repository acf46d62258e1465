package sweep

import (
	"math"
	"testing"
	"time"

	"surge/arrival"
	"surge/spec"
)

func TestAtRate(t *testing.T) {
	t.Parallel()
	s := &spec.Spec{Duration: 100 * time.Second, Clients: []spec.Client{
		{Name: "a", Weight: 1, Arrival: arrival.Config{Rate: 3}},
		{Name: "b", Weight: 1, Arrival: arrival.Config{Curve: arrival.Curve{Stages: []arrival.Stage{{At: 0, Rate: 1}, {At: 50 * time.Second, Rate: 1}}}}},
		{Name: "closed", Weight: 1, Concurrency: 4},
	}}
	base, err := OfferedRate(s)
	if err != nil || math.Abs(base-4) > 1e-9 {
		t.Fatalf("offered rate %g, %v; want 4", base, err)
	}
	out, err := AtRate(s, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := OfferedRate(out); math.Abs(got-10) > 1e-9 {
		t.Errorf("scaled offered rate %g, want 10", got)
	}
	if out.Clients[0].Arrival.Rate != 7.5 || out.Clients[1].Arrival.Curve.Stages[1].Rate != 2.5 || out.Clients[2].Concurrency != 4 {
		t.Errorf("clients %+v: want rates scaled by 2.5 and the closed loop kept", out.Clients)
	}
	if s.Clients[0].Arrival.Rate != 3 || s.Clients[1].Arrival.Curve.Stages[1].Rate != 1 {
		t.Error("AtRate changed the spec it was given")
	}
	if _, err := AtRate(&spec.Spec{Clients: []spec.Client{{Name: "c", Concurrency: 2}}}, 5); err == nil {
		t.Error("a rate sweep of closed-loop clients only was accepted")
	}
	curve := &spec.Spec{Requests: 10, Clients: []spec.Client{s.Clients[1]}}
	if _, err := OfferedRate(curve); err == nil {
		t.Error("a rate curve without a duration has a mean rate")
	}
}

func TestAtConcurrency(t *testing.T) {
	t.Parallel()
	s := &spec.Spec{Duration: 10 * time.Second, Clients: []spec.Client{
		{Name: "a", Weight: 1, Arrival: arrival.Config{Rate: 30}},
		{Name: "b", Weight: 1, Arrival: arrival.Config{Rate: 10}},
	}}
	out, err := AtConcurrency(s, 64, 0)
	if err != nil {
		t.Fatal(err)
	}
	// 62 left after one each, split 3:1 → 46.5 and 15.5; the tie of
	// remainders goes to the first client.
	if out.Clients[0].Concurrency != 48 || out.Clients[1].Concurrency != 16 || out.Requests != 400 || out.Duration != 0 {
		t.Errorf("got concurrencies %d+%d, %d requests, duration %v; want 48+16, 400 (40/s × 10 s), none",
			out.Clients[0].Concurrency, out.Clients[1].Concurrency, out.Requests, out.Duration)
	}
	if out.Clients[0].Arrival.Process != "" || out.Clients[0].Arrival.Rate != 0 {
		t.Error("a closed-loop client kept its arrival process")
	}
	if _, err := AtConcurrency(s, 1, 0); err == nil {
		t.Error("concurrency below one per client was accepted")
	}
}
