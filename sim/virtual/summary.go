package virtual

import "surge/trace"

// Summarize summarises the trace tr reads (trace.SummarizeFunc) with the
// prefix reuse its sessions imply in blocks of blockTokens tokens
// (ImpliedReuse; none when it has too many blocks to tell).
func Summarize(tr *trace.Reader, blockTokens int) (*trace.Summary, error) {
	var sessions []*trace.Session
	sum, err := trace.SummarizeFunc(tr, func(s *trace.Session) { sessions = append(sessions, s) })
	if err != nil {
		return nil, err
	}
	if reuse, ok := ImpliedReuse(sessions, blockTokens); ok {
		sum.Reuse = &reuse
	}
	return sum, nil
}
