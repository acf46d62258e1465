package fit_test

import (
	"fmt"
	"math/rand/v2"

	"surge/fit"
)

// Fit gaps drawn from an exponential law: the exponential (or a family
// containing it) wins and the fit is graded good.
func ExampleBest() {
	r := rand.New(rand.NewPCG(1, 2))
	gaps := make([]float64, 20000)
	for i := range gaps {
		gaps[i] = r.ExpFloat64() / 4 // 4 arrivals per second
	}
	c, err := fit.Best(gaps)
	if err != nil {
		fmt.Println(err)
		return
	}
	exp, _ := c.Lookup(fit.FamilyExponential)
	fmt.Printf("rate %.1f/s, grade %v\n", exp.Params["rate"], c.Grade)
	// Output: rate 4.0/s, grade good
}

// Detect the slots of a trace that stamps requests every 3 s.
func ExampleDetectGrid() {
	var times []float64
	for slot := range 100 {
		for range 1 + slot%3 { // 1, 2 or 3 requests per slot
			times = append(times, 3*float64(slot))
		}
	}
	g := fit.DetectGrid(times)
	fmt.Printf("grid %v, period %g s, %.2f per slot\n", g.Detected, g.Period, g.PerSlot)
	// Output: grid true, period 3 s, 1.99 per slot
}
