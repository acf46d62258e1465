package compare_test

import (
	"fmt"

	"surge/metrics/compare"
)

func ExampleParseGates() {
	gates, err := compare.ParseGates("ttft.p99:+10%,output_throughput:-5%")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range gates {
		fmt.Println(g.Row, g.Increase, g.Percent)
	}
	_, err = compare.ParseGates("ttft.p95:+10%")
	fmt.Println(err)
	// Output:
	// ttft.p99 true 10
	// output_throughput false 5
	// gate "ttft.p95:+10%": unknown statistic "p95"; want ttft.p50, ttft.p90, ttft.p99, ttft.mean
}

func ExampleMannWhitney() {
	males := []float64{19, 22, 16, 29, 24}
	females := []float64{20, 11, 17, 12}
	u, p, _ := compare.MannWhitney(males, females)
	fmt.Printf("U = %g, p = %.4f\n", u, p)
	// Output: U = 17, p = 0.1113
}
