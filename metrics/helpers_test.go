package metrics

import "surge/trace"

// okRec is a successful request intended at at µs, sent 1 ms later, with
// the given TTFT and E2E and 10 output tokens in 10 events.
func okRec(client string, at, ttft, e2e int64) trace.Record {
	return trace.Record{
		Client: client, IntendedUS: at, SentUS: at + 1000, TTFTUS: ttft, TTFOUS: ttft, E2EUS: e2e,
		ITLUS:       []int64{(e2e - ttft) / 9, (e2e - ttft) / 9},
		InputTokens: 100, ClientInputTokens: 100, ServerInputTokens: 100,
		OutputTokens: 10, ServerOutputTokens: 10, Chunks: 10,
		Status: 200, FinishReason: "length",
	}
}

// failRec is a failed request of class class with HTTP status status.
func failRec(client string, at int64, class string, status int) trace.Record {
	return trace.Record{Client: client, IntendedUS: at, SentUS: at + 1000, E2EUS: 5000, Status: status, ErrorClass: class}
}

// records wraps recs in a complete run with the given SLOs.
func records(slos []trace.SLO, recs ...trace.Record) *trace.Records {
	return &trace.Records{
		Header:  trace.RunHeader{Format: trace.RecordsFormat, Target: "http://t", WorkloadHash: "sha256:abc", SLO: slos},
		Records: recs,
		End:     &trace.RunEnd{DurationUS: 10e6, Scheduled: len(recs), Sent: countSent(recs), Dropped: len(recs) - countSent(recs)},
	}
}

func countSent(recs []trace.Record) int {
	n := 0
	for _, r := range recs {
		if r.ErrorClass != trace.ErrDropped {
			n++
		}
	}
	return n
}
