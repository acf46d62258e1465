package dist_test

import (
	"fmt"
	"math/rand/v2"

	"surge/dist"
)

func ExampleParse() {
	d, err := dist.Parse("lognormal(median=1k, sigma=0.8, max=16k)")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d)
	fmt.Printf("mean %.1f\n", d.Mean())

	r := rand.New(rand.NewPCG(1, 2))
	x := d.Sample(r)
	fmt.Println(x > 0 && x <= 16000)

	_, err = dist.Parse("lognormal(median=1k, sigma=0.8, max=16kb)")
	fmt.Println(err)
	// Output:
	// lognormal(median=1000,sigma=0.8,max=16000)
	// mean 1376.1
	// true
	// column 40: expected "," or ")", found 'b'
}

func ExampleNewMixture() {
	short, _ := dist.New("lognormal", dist.Params{"median": 300, "sigma": 0.5})
	long, _ := dist.New("normal", dist.Params{"mean": 8000, "sd": 1000})
	d, _ := dist.NewMixture([]float64{0.7, 0.3}, []dist.Dist{short, long})
	d, _ = dist.Clamp(d, 1, 16000)
	fmt.Println(d)
	// Output:
	// mixture(0.7*lognormal(median=300,sigma=0.5),0.3*normal(mean=8000,sd=1000),min=1,max=16000)
}
