package arrival_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"surge/arrival"
)

func ExampleConfig_Schedule() {
	c := arrival.Config{Process: arrival.Constant, Rate: 4} // one every 250ms
	offs, err := c.Schedule(rand.New(rand.NewPCG(1, 2)), 4, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range offs {
		fmt.Println(o)
	}
	// Output:
	// 169.114ms
	// 419.114ms
	// 669.114ms
	// 919.114ms
}

func ExampleConfig_Stream() {
	// Merge two clients lazily: always take the earlier pending arrival.
	a := arrival.Config{Rate: 2}.Stream(rand.New(rand.NewPCG(1, 1)))
	b := arrival.Config{Process: arrival.Gamma, CV: 2, Rate: 3}.Stream(rand.New(rand.NewPCG(2, 2)))
	ta, _ := a.Next()
	tb, _ := b.Next()
	for range 8 {
		if ta <= tb {
			fmt.Println("a", ta)
			ta, _ = a.Next()
		} else {
			fmt.Println("b", tb)
			tb, _ = b.Next()
		}
	}
	// Output:
	// a 441.018ms
	// a 512.04ms
	// a 1.074795s
	// a 1.363826s
	// b 1.841822s
	// b 1.929703s
	// b 1.939776s
	// a 2.782133s
}

func ExampleConfig_Validate() {
	c := arrival.Config{
		Process: arrival.Gamma,
		Rate:    10,
		Curve:   arrival.Curve{Stages: []arrival.Stage{{At: time.Minute, Rate: 5}, {At: 0, Rate: 1}}},
	}
	fmt.Println(c.Validate())
	// Output:
	// arrival.cv: gamma needs a cv between 0.001 and 100, got 0
	// arrival.rate: must be unset when arrival.stages gives the rate, got 10
	// arrival.stages[1].at: 0s is before arrival.stages[0].at 1m0s; stages must be sorted by at
}

func ExampleCVFromBurstiness() {
	// vLLM's --burstiness 0.25 is a gamma law of shape 0.25.
	c := arrival.Config{Process: arrival.Gamma, Rate: 8, CV: arrival.CVFromBurstiness(0.25)}
	fmt.Println(c.CV, c.Validate())
	// Output: 2 <nil>
}

func ExampleConfig_Cumulative() {
	// A ramp from 0 to 10/s over 10 s, then 10/s: Λ(10 s) = 50, Λ(20 s) = 150.
	c := arrival.Config{Curve: arrival.Curve{Ramp: &arrival.Ramp{From: 0, To: 10, Over: 10 * time.Second}}}
	fmt.Println(c.RateAt(5*time.Second), c.Cumulative(10*time.Second), c.Cumulative(20*time.Second))
	t, _ := c.InverseCumulative(50)
	fmt.Println(t)
	// Output:
	// 5 50 150
	// 10s
}
