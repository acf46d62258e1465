package validation

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"surge/metrics"
)

// Result is a case with the engine's figure for its row.
type Result struct {
	Case Case
	Got  float64
}

// Err is the signed relative error of the engine's figure.
func (r Result) Err() float64 { return r.Got/r.Case.Row.Value - 1 }

// Skip is a row the command line cannot express, and why.
type Skip struct {
	Row    Row
	Reason string
}

// Validate expresses every row and runs each distinct case once (rows
// that differ only in their metric share a run), two runs at a time;
// results and skips keep the order of rows. Each run's flags and wall
// time go to progress, when not nil.
func Validate(ctx context.Context, rows []Row, progress io.Writer) ([]Result, []Skip, error) {
	var (
		cases []Case
		skips []Skip
	)
	runs := map[string]*runOutcome{}
	var order []string
	for _, r := range rows {
		c, why := Express(r)
		if why != "" {
			skips = append(skips, Skip{r, why})
			continue
		}
		cases = append(cases, c)
		if k := c.key(); runs[k] == nil {
			runs[k] = &runOutcome{c: c}
			order = append(order, k)
		}
	}
	if err := runAll(ctx, runs, order, progress); err != nil {
		return nil, nil, err
	}
	results := make([]Result, 0, len(cases))
	for _, c := range cases {
		sum := runs[c.key()].sum
		if a := sum.All; a.OK < a.Requests {
			// A failed request has no figure to compare: the row is one
			// the engine cannot run as the flags say, not an error of 100%.
			skips = append(skips, Skip{c.Row, fmt.Sprintf("%d of %d requests failed in the engine (%s)", a.Requests-a.OK, a.Requests, c.Flags())})
			continue
		}
		v, err := c.Value(sum)
		if err != nil {
			return nil, nil, err
		}
		results = append(results, Result{c, v})
	}
	return results, skips, nil
}

// key names the run of a case: rows with the same key share it.
func (c Case) key() string { return c.Spec() + c.Flags() }

// runAll runs the outcomes of order on two workers and returns the first
// error.
func runAll(ctx context.Context, runs map[string]*runOutcome, order []string, progress io.Writer) error {
	src, err := newSource()
	if err != nil {
		return err
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		next int
	)
	for range 2 {
		wg.Go(func() {
			for {
				mu.Lock()
				if next == len(order) {
					mu.Unlock()
					return
				}
				o := runs[order[next]]
				next++
				mu.Unlock()
				start := time.Now()
				o.sum, o.err = o.c.summarize(ctx, src)
				if progress != nil {
					mu.Lock()
					fmt.Fprintf(progress, "%s (%s): %v\n", o.c.Flags(), load(o.c), time.Since(start).Round(time.Millisecond))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for _, k := range order {
		if err := runs[k].err; err != nil {
			return err
		}
	}
	return nil
}

// Median is the median |error| of the results keep selects, and how many
// it selected (NaN for none).
func Median(rs []Result, keep func(Result) bool) (float64, int) {
	var xs []float64
	for _, r := range rs {
		if keep(r) {
			xs = append(xs, math.Abs(r.Err()))
		}
	}
	return median(xs), len(xs)
}

// Within is the share of the results keep selects within 10 %.
func Within(rs []Result, keep func(Result) bool) float64 {
	n, in := 0, 0
	for _, r := range rs {
		if keep(r) {
			n++
			if math.Abs(r.Err()) <= 0.10 {
				in++
			}
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(in) / float64(n)
}

// runOutcome is one run's summary or error.
type runOutcome struct {
	c   Case
	sum *metrics.Summary
	err error
}
