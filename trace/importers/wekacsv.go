package importers

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"surge/trace"
)

// wekaColumns are the columns of the flattened WEKA requests CSV that the
// import reads.
var wekaColumns = []string{"trace_id", "stream", "req_idx", "t_s", "model", "in_tokens", "out_tokens",
	"n_blocks", "lcp_prev_blocks", "api_time_s", "think_time_s"}

// wekaRow is one request of the flattened CSV.
type wekaRow struct {
	line            int
	trace, stream   string
	idx             int
	t, api, think   float64
	noThink         bool // think_time_s is empty: it is taken from the times
	model           string
	in, out, n, lcp int
}

// WEKARequests reads the flattened WEKA agentic requests CSV (one row per
// request of every conversation, main stream and sub-agent streams, with
// block counts in place of hash ids) and emits each conversation as a
// session of client, in file order. Some rows lack api_time_s or
// think_time_s: a missing think time is the gap since the previous
// request of the stream ended, from t_s and its api time (0 if missing).
//
// A request's prompt is n_blocks full blocks of 64 tokens and the rest of
// its input as content of its own; its first lcp_prev_blocks blocks are
// the previous request's of its stream (the longest common prefix the
// trace records) and the others new, so the replay shares what each
// request shares with the one before it. Main-stream requests run one
// after another, each after its think time (divided by opts.Speed). The
// CSV does not say when a sub-agent stream was started: it is forked after
// the main request before the one whose think time best covers the
// sub-agent's duration (the smallest think time at least that long), and
// that request waits for it and then only the rest of its think time; a
// sub-agent no think time covers runs after the last main request.
func WEKARequests(r io.Reader, client string, opts WEKAOptions, emit func(*trace.Session) error) error {
	cr, col, err := headedCSV(r, wekaColumns, "weka requests csv")
	if err != nil {
		return err
	}
	var rows []wekaRow
	index := 0
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		s, err := wekaSession(rows, client, index, opts)
		if err != nil {
			return err
		}
		index++
		rows = rows[:0]
		return emit(s)
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return flush()
		}
		if err != nil {
			return fmt.Errorf("weka requests csv: %w", err)
		}
		row, err := parseWekaRow(rec, col, line)
		if err != nil {
			return err
		}
		if len(rows) > 0 && row.trace != rows[0].trace {
			if err := flush(); err != nil {
				return err
			}
		}
		rows = append(rows, row)
	}
}

// columns maps each wanted column name to its index in head.
func columns(head, want []string) (map[string]int, error) {
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	var missing []string
	for _, w := range want {
		if _, ok := col[w]; !ok {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("header lacks columns %s", strings.Join(missing, ", "))
	}
	return col, nil
}

// headedCSV returns a reader of r's records after its header, which must
// hold the columns want, and where each column is; errors are named
// what.
func headedCSV(r io.Reader, want []string, what string) (*csv.Reader, map[string]int, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: header: %w", what, err)
	}
	col, err := columns(head, want)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	return cr, col, nil
}

// parseWekaRow reads one CSV record, naming its line in errors.
func parseWekaRow(rec []string, col map[string]int, line int) (wekaRow, error) {
	w := wekaRow{line: line, trace: rec[col["trace_id"]], stream: rec[col["stream"]], model: rec[col["model"]]}
	var errs []error
	num := func(name string, dst *float64) {
		if name == "api_time_s" && rec[col[name]] == "" {
			return // not recorded for some streamed requests; only sub-agent durations use it
		}
		if name == "think_time_s" && rec[col[name]] == "" {
			w.noThink = true
			return
		}
		v, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			errs = append(errs, fmt.Errorf("%s %q: want a number ≥ 0", name, rec[col[name]]))
		}
		*dst = v
	}
	count := func(name string, dst *int) {
		v, err := strconv.Atoi(rec[col[name]])
		if err != nil || v < 0 {
			errs = append(errs, fmt.Errorf("%s %q: want a whole number ≥ 0", name, rec[col[name]]))
		}
		*dst = v
	}
	count("req_idx", &w.idx)
	num("t_s", &w.t)
	num("api_time_s", &w.api)
	num("think_time_s", &w.think)
	count("in_tokens", &w.in)
	count("out_tokens", &w.out)
	count("n_blocks", &w.n)
	count("lcp_prev_blocks", &w.lcp)
	if len(errs) == 0 && (w.in < 1 || w.n*64 > w.in) {
		errs = append(errs, fmt.Errorf("in_tokens %d with %d blocks of 64 tokens: want at least 1 token, and the blocks within it", w.in, w.n))
	}
	if len(errs) > 0 {
		return w, fmt.Errorf("weka requests csv line %d: %w", line, errors.Join(errs...))
	}
	return w, nil
}

// wekaSession builds the session of one conversation's rows.
func wekaSession(rows []wekaRow, client string, index int, opts WEKAOptions) (*trace.Session, error) {
	speed := opts.Speed
	if speed <= 0 {
		speed = 1
	}
	streams := map[string][]wekaRow{}
	var names []string
	for _, r := range rows {
		if _, ok := streams[r.stream]; !ok {
			names = append(names, r.stream)
		}
		streams[r.stream] = append(streams[r.stream], r)
	}
	main, ok := streams["main"]
	if !ok {
		return nil, fmt.Errorf("weka requests csv line %d: conversation %s has no main stream", rows[0].line, rows[0].trace)
	}
	for _, n := range names {
		rs := streams[n]
		slices.SortStableFunc(rs, func(a, b wekaRow) int { return cmp.Compare(a.idx, b.idx) })
		for i := range rs {
			if rs[i].noThink && i > 0 {
				// The gap since the previous response ended (its start, when
				// its api time is missing too).
				rs[i].think = max(0, rs[i].t-rs[i-1].t-rs[i-1].api)
			}
		}
	}
	b := &wekaBuilder{s: &trace.Session{Client: client, Index: index, API: "chat"}, scope: uint64(index+1) << 40, speed: speed}
	joins := b.placeSubagents(main, names, streams)
	models := map[string]int{}
	prevMain := -1
	for k, r := range main {
		models[r.model]++
		var after []int
		longest := 0.0
		for _, sub := range joins[k] {
			last, dur := b.stream(streams[sub], prevMain)
			after = append(after, last)
			longest = max(longest, dur)
		}
		prevMain = b.add(r, prevMain, after, max(0, r.think-longest), &b.mainIDs)
	}
	for _, sub := range joins[-1] {
		b.stream(streams[sub], prevMain)
	}
	b.s.Model = mostUsed(models)
	if err := b.s.Validate(); err != nil {
		return nil, fmt.Errorf("weka conversation %s: %w", rows[0].trace, err)
	}
	return b.s, nil
}

// wekaBuilder assembles one conversation's turns and block ids.
type wekaBuilder struct {
	s       *trace.Session
	scope   uint64
	next    uint64 // next fresh block id within the scope
	speed   float64
	mainIDs []uint64
}

// placeSubagents chooses for each sub-agent stream the main request that
// joins it (see WEKARequests): joins[k] lists the streams main request k
// waits for, joins[-1] those no think time covers.
func (b *wekaBuilder) placeSubagents(main []wekaRow, names []string, streams map[string][]wekaRow) map[int][]string {
	joins := map[int][]string{}
	for _, n := range names {
		if n == "main" {
			continue
		}
		rs := streams[n]
		dur := rs[len(rs)-1].t + rs[len(rs)-1].api
		best := -1
		for k := 1; k < len(main); k++ {
			if main[k].think >= dur && (best < 0 || main[k].think < main[best].think) {
				best = k
			}
		}
		joins[best] = append(joins[best], n)
	}
	return joins
}

// stream appends a sub-agent stream forked after turn fork and returns
// its last turn and its duration in seconds.
func (b *wekaBuilder) stream(rs []wekaRow, fork int) (int, float64) {
	var ids []uint64
	prev := -1
	for i, r := range rs {
		var after []int
		if i == 0 && fork >= 0 {
			after = []int{fork}
		}
		wait := r.think
		if i == 0 {
			wait = 0
		}
		prev = b.add(r, prev, after, wait, &ids)
	}
	last := rs[len(rs)-1]
	return prev, last.t + last.api
}

// add appends r's turn, after turn prev (if ≥ 0) and the turns in after
// plus wait seconds, with ids, the previous request's block ids of its
// stream, replaced by this request's. It returns the turn's index.
func (b *wekaBuilder) add(r wekaRow, prev int, after []int, wait float64, ids *[]uint64) int {
	out := max(r.out, 1)
	t := trace.Turn{InputTokens: r.in, OutputTokens: out, MaxTokens: out, MinTokens: out, IgnoreEOS: true, BlockTokens: 64}
	keep := min(r.lcp, r.n, len(*ids))
	t.Blocks = append(slices.Clone((*ids)[:keep]), make([]uint64, r.n-keep)...)
	for i := keep; i < r.n; i++ {
		t.Blocks[i] = b.scope | b.next
		b.next++
	}
	*ids = t.Blocks
	if prev >= 0 {
		t.After = append([]int{prev}, after...)
	} else {
		t.After = after
	}
	if prev >= 0 || len(after) > 0 {
		t.WaitUS = int64(math.Round(wait / b.speed * 1e6))
	}
	b.s.Turns = append(b.s.Turns, t)
	return len(b.s.Turns) - 1
}

// mostUsed returns the key with the largest count (the smallest name on a
// tie, so the choice does not depend on map order).
func mostUsed(count map[string]int) string {
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return slices.MaxFunc(keys, func(a, b string) int { return count[a] - count[b] })
}
