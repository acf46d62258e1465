package metrics

import (
	"math/rand/v2"
	"testing"

	"surge/trace"
)

// benchRecords makes n records of 4 clients at 1,000 req/s in sessions of
// 4 turns: lognormal-ish latencies, 16 ITL gaps each, 2% errors, the
// first 1% warmup.
func benchRecords(n int) *trace.Records {
	rng := rand.New(rand.NewPCG(7, 8))
	clients := []string{"chat", "agent", "rag", "batch"}
	recs := make([]trace.Record, n)
	for i := range recs {
		at := int64(i) * 1000
		ttft := 20_000 + int64(rng.ExpFloat64()*80_000)
		r := okRec(clients[i%4], at, ttft, ttft+int64(rng.ExpFloat64()*2e6))
		r.Session, r.Turn = i/16, i/4%4
		r.ITLUS = make([]int64, 16)
		for j := range r.ITLUS {
			r.ITLUS[j] = 5000 + rng.Int64N(30_000)
		}
		r.Warmup = i < n/100
		if rng.IntN(50) == 0 {
			r.ErrorClass, r.Status = trace.ErrHTTP, 503
		}
		recs[i] = r
	}
	slos := []trace.SLO{{Metric: "ttft", Percentile: 99, BoundUS: 500_000}, {Metric: "tpot", Percentile: 90, BoundUS: 200_000}}
	return records(slos, recs...)
}

// BenchmarkSummarize summarises 1M records, all clients and each client.
func BenchmarkSummarize(b *testing.B) {
	rs := benchRecords(1_000_000)
	for _, per := range []bool{false, true} {
		name := "all"
		if per {
			name = "perclient"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Summarize(rs, Options{PerClient: per})
			}
		})
	}
}
