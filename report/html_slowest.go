package report

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"surge/metrics"
	"surge/trace"
)

// Slowest-requests table settings: how many rows, and how many runes of
// each prompt.
const (
	slowestRows   = 10
	promptExcerpt = 160
)

// slowestGrid lists the measured sent requests (metrics.Sent) that took
// longest, failed ones first, each with its prompt's opening when prompt
// knows it; nil when no request was measured.
func slowestGrid(rs *trace.Records, prompt func(client string, session, turn int) string) *grid {
	recs := Slowest(rs)
	if len(recs) == 0 {
		return nil
	}
	g := &grid{Head: []string{"client", "session/turn", "in tok", "out tok", "TTFT ms", "E2E+lag ms", "outcome", "prompt"}}
	for _, r := range recs {
		text := ""
		if prompt != nil {
			text = excerpt(prompt(r.Client, r.Session, r.Turn))
		}
		outcome := "ok"
		if !r.OK() {
			outcome = r.ErrorClass
		}
		g.add(r.Client, count(r.Session)+"/"+count(r.Turn), count(r.InputTokens), count(r.ServerOutputTokens),
			ttftCell(r), ms(float64(e2eLag(r))), outcome, text)
	}
	return g
}

// Slowest returns the requests the HTML report lists as the slowest, in
// its order: the sent requests that failed first, then by E2E plus lag,
// longest first, at most its table's rows. Their prompts are the only
// ones HTML asks HTMLInput.Prompt for.
func Slowest(rs *trace.Records) []*trace.Record {
	recs := metrics.Sent.Records(rs)
	slices.SortStableFunc(recs, func(a, b *trace.Record) int {
		return cmp.Or(cmp.Compare(okRank(a), okRank(b)), cmp.Compare(e2eLag(b), e2eLag(a)))
	})
	return recs[:min(slowestRows, len(recs))]
}

// ttftCell is r's TTFT in ms, "n/a" for a response not streamed.
func ttftCell(r *trace.Record) string {
	if !metrics.Streamed(r) {
		return "n/a"
	}
	return ms(float64(r.TTFTUS))
}

// okRank puts failed requests before successful ones.
func okRank(r *trace.Record) int {
	if r.OK() {
		return 1
	}
	return 0
}

// e2eLag is r's E2E counted from its intended send time, in µs.
func e2eLag(r *trace.Record) int64 { return metrics.FromIntended(r, r.E2EUS) }

// excerpt is the opening of a prompt on one line: whitespace runs become
// one space, and text past promptExcerpt runes is cut with an ellipsis.
func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= promptExcerpt {
		return s
	}
	r := []rune(s)
	return string(r[:promptExcerpt]) + "…"
}
