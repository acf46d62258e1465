package importers

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"surge/trace"
)

// wekaSummaryColumns are the columns of the WEKA per-conversation summary
// CSV that the import reads.
var wekaSummaryColumns = []string{"trace_id", "models", "block_size", "n_requests", "n_main_requests", "n_streams",
	"first_in", "last_in", "duration_s"}

// wekaSummary is one conversation of the summary CSV.
type wekaSummary struct {
	line                   int
	id, models             string
	block, requests, steps int
	streams, first, last   int
	duration               float64
}

// SummaryOptions say how WEKASummaries expands a conversation.
type SummaryOptions struct {
	// Speed divides every think time (0 or 1: as recorded).
	Speed float64
	// Output is every answer's length in tokens, which a summary does not
	// record.
	Output int
}

// SummaryStats say what an import of the summary CSV chose and left out.
type SummaryStats struct {
	// Output is every answer's length, and Bound says it is the one
	// SummaryAnswers chose from the conversations' growth.
	Output int
	Bound  bool
	// Subagents and SubRequests count the sub-agent streams and their
	// requests, whose prompts a summary does not record.
	Subagents, SubRequests int
}

// WEKASummaries reads the WEKA per-conversation summary CSV (a row per
// conversation: its models, request counts, first and last prompt and
// duration) and emits each conversation as a session of client, in file
// order, its main stream only. A summary holds no requests, so the
// session is what the row implies and no more: n_main_requests turns
// whose prompts grow evenly from first_in to last_in (a conversation
// that ends shorter than it began keeps first_in and drops to last_in at
// its last turn, one reset), each answer opts.Output tokens, each later
// turn after an even share of duration_s (which holds the model's own
// time as well as the think and tool time), and each prompt's full
// blocks of block_size tokens the previous prompt's and then new ones, as
// a pinned history's are. A conversation of several models names them
// all, joined by "|", as the row does: it does not say which served
// which request. Sub-agent streams are left out and counted in st.
func WEKASummaries(r io.Reader, client string, opts SummaryOptions, emit func(*trace.Session) error) (st SummaryStats, err error) {
	index := 0
	err = eachSummary(r, func(w wekaSummary) error {
		st.Subagents += w.streams - 1
		st.SubRequests += w.requests - w.steps
		index++
		return emit(summarySession(w, client, index-1, opts))
	})
	return st, err
}

// eachSummary reads the summary CSV's rows, handing each to do.
func eachSummary(r io.Reader, do func(wekaSummary) error) error {
	cr, col, err := headedCSV(r, wekaSummaryColumns, "weka summary csv")
	if err != nil {
		return err
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("weka summary csv: %w", err)
		}
		w, err := parseSummaryRow(rec, col, line)
		if err != nil {
			return err
		}
		if err := do(w); err != nil {
			return err
		}
	}
}

// parseSummaryRow reads one CSV record, naming its line in errors.
func parseSummaryRow(rec []string, col map[string]int, line int) (wekaSummary, error) {
	w := wekaSummary{line: line, id: rec[col["trace_id"]], models: strings.TrimSpace(rec[col["models"]])}
	var errs []error
	count := func(name string, dst *int, least int) {
		v, err := strconv.Atoi(strings.TrimSpace(rec[col[name]]))
		if err != nil || v < least {
			errs = append(errs, fmt.Errorf("%s %q: want a whole number ≥ %d", name, rec[col[name]], least))
		}
		*dst = v
	}
	count("block_size", &w.block, 1)
	count("n_requests", &w.requests, 1)
	count("n_main_requests", &w.steps, 1)
	count("n_streams", &w.streams, 1)
	count("first_in", &w.first, 1)
	count("last_in", &w.last, 1)
	v, err := strconv.ParseFloat(strings.TrimSpace(rec[col["duration_s"]]), 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		errs = append(errs, fmt.Errorf("duration_s %q: want seconds ≥ 0", rec[col["duration_s"]]))
	}
	w.duration = v
	if len(errs) == 0 && w.steps > w.requests {
		errs = append(errs, fmt.Errorf("n_main_requests %d above n_requests %d", w.steps, w.requests))
	}
	if len(errs) > 0 {
		return w, fmt.Errorf("weka summary csv line %d: %w", line, errors.Join(errs...))
	}
	return w, nil
}

// summarySession expands one conversation's summary (see WEKASummaries).
func summarySession(w wekaSummary, client string, index int, opts SummaryOptions) *trace.Session {
	speed := opts.Speed
	if speed <= 0 {
		speed = 1
	}
	out := max(opts.Output, 1)
	s := &trace.Session{Client: client, Index: index, API: "chat", Model: w.models}
	scope, next := uint64(index+1)<<40, uint64(0)
	var ids []uint64
	wait := 0.0
	if w.steps > 1 {
		wait = w.duration / float64(w.steps-1) / speed
	}
	for k := range w.steps {
		in := summaryPrompt(w, k)
		t := trace.Turn{InputTokens: in, OutputTokens: out, MaxTokens: out, MinTokens: out, IgnoreEOS: true, BlockTokens: w.block}
		n := in / w.block
		keep := min(len(ids), n)
		t.Blocks = append(ids[:keep:keep], make([]uint64, n-keep)...)
		for i := keep; i < n; i++ {
			t.Blocks[i] = scope | next
			next++
		}
		ids = t.Blocks
		if k > 0 {
			t.After = []int{k - 1}
			t.WaitUS = int64(math.Round(wait * 1e6))
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

// summaryPrompt is turn k's prompt: first_in grown evenly to last_in, or
// first_in until a last turn of last_in when the conversation ends
// shorter than it began.
func summaryPrompt(w wekaSummary, k int) int {
	switch {
	case w.steps == 1 || k == 0:
		return w.first
	case w.last < w.first && k < w.steps-1:
		return w.first
	case w.last < w.first:
		return w.last
	}
	return w.first + int(math.Round(float64(k)*float64(w.last-w.first)/float64(w.steps-1)))
}

// The answers SummaryAnswers chooses: at most DefaultSummaryOutput
// tokens, and no longer than the growth per later turn of all but
// summaryShortShare of the later turns.
const (
	DefaultSummaryOutput = 256
	summaryShortShare    = 0.05
)

// SummaryAnswers chooses the length of every answer of the summary CSV's
// conversations, which it does not record: DefaultSummaryOutput tokens,
// or less when more than summaryShortShare of the later turns are in
// conversations whose prompts grow by less a turn, the answer before
// being part of that growth in a pinned history; then the growth of the
// turn at that share, counting each conversation's later turns (at least
// 1 token).
func SummaryAnswers(r io.Reader) (int, error) {
	type grows struct{ g, turns float64 }
	var gs []grows
	total := 0.0
	err := eachSummary(r, func(w wekaSummary) error {
		if w.steps > 1 {
			n := float64(w.steps - 1)
			gs = append(gs, grows{math.Max(float64(w.last-w.first), 0) / n, n})
			total += n
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	slices.SortFunc(gs, func(a, b grows) int { return cmp.Compare(a.g, b.g) })
	seen := 0.0
	for _, g := range gs {
		if seen += g.turns; seen > summaryShortShare*total {
			return max(1, min(DefaultSummaryOutput, int(g.g))), nil
		}
	}
	return DefaultSummaryOutput, nil
}
