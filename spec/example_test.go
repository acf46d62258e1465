package spec_test

import (
	"fmt"

	"surge/spec"
)

func ExampleParse() {
	s, err := spec.Parse("chat.yaml", []byte(`version: 1
duration: 10m
rate: 20/s
clients:
  - name: chat
    model: meta-llama/Llama-3.1-8B-Instruct
    input: {dist: lognormal, median: 1k, sigma: 0.9, max: 16k}
    output: 256
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	c := s.Clients[0]
	fmt.Println(s.Duration, c.Arrival.Process, c.Arrival.Rate, c.Input, c.Output)

	_, err = spec.Parse("chat.yaml", []byte(`version: 1
duration: 10m
clients:
  - name: chat
    model: m
    rate: 5/x
    arrival: {process: gamma, cvv: 3}
    input: 1k
    output: 256
`))
	fmt.Println(err)
	// Output:
	// 10m0s poisson 20 lognormal(median=1000,sigma=0.9,max=16000) fixed(value=256)
	// chat.yaml:6:11: clients[0].rate: expected a rate like 5/s, 300/m or 1200/h, got 5/x (the unit after / is s, sec, m, min, h, hr or d)
	// chat.yaml:7:15: clients[0].arrival.process: gamma gaps need cv (the coefficient of variation of the gaps, 1 for Poisson-like)
	// chat.yaml:7:31: clients[0].arrival.cvv: unknown key (did you mean "cv"?)
}
