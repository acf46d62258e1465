package importers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"surge/trace"
)

// TestMooncakeFiles imports both Mooncake traces: the row counts and the
// mean lengths of known answer 6, arrivals in whole milliseconds, and a
// prompt of ⌊input/512⌋ full blocks plus a tail block when 512 does not
// divide the input, exactly as many ids as the file lists.
func TestMooncakeFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file          string
		rows, ids     int
		meanIn, meanO float64 // known answer 6
	}{
		{"mooncake/conversation_trace.jsonl", 12031, 288500, 12035, 342.6},
		{"mooncake/synthetic_trace.jsonl", 3993, 121877, 15325, 149.1},
	}
	for _, tt := range tests {
		ss := drain(t, openStream(t, tt.file, mooncakeSrc))
		if len(ss) != tt.rows {
			t.Fatalf("%s: %d sessions, want %d", tt.file, len(ss), tt.rows)
		}
		var in, out float64
		ids := 0
		for _, s := range ss {
			tu := s.Turns[0]
			in += float64(tu.InputTokens)
			out += float64(tu.OutputTokens)
			ids += len(tu.Blocks)
			full, rest := tu.InputTokens/512, tu.InputTokens%512
			if tu.BlockTokens != 512 || len(tu.Blocks) != full || (tu.TailBlock != nil) != (rest > 0) || s.AtUS%1000 != 0 {
				t.Fatalf("%s session %d: %d blocks of %d, tail %v, at %dus for %d input tokens", tt.file, s.Index, len(tu.Blocks), tu.BlockTokens, tu.TailBlock, s.AtUS, tu.InputTokens)
			}
			if tu.TailBlock != nil {
				ids++
			}
		}
		n := float64(len(ss))
		if ids != tt.ids || math.Abs(in/n-tt.meanIn) > 0.5 || math.Abs(out/n-tt.meanO) > 0.05 {
			t.Errorf("%s: %d ids, mean input %.1f, output %.2f; want %d, %.0f, %.1f", tt.file, ids, in/n, out/n, tt.ids, tt.meanIn, tt.meanO)
		}
	}
}

// TestMooncakeReuse checks known answer 6 from the imported blocks: with
// an unbounded cache, the share of each prompt an earlier prompt held
// averages 0.409 over the conversation trace's requests and is 0.374 of
// its tokens (synthetic: 0.432, 0.651). Counting a cut-short last block
// as the request's own content would give 0.408 and 0.373.
func TestMooncakeReuse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file           string
		perReq, tokens float64
	}{
		{"mooncake/conversation_trace.jsonl", 0.409, 0.374},
		{"mooncake/synthetic_trace.jsonl", 0.432, 0.651},
	}
	for _, tt := range tests {
		perReq, tokens := blockReuse(drain(t, openStream(t, tt.file, mooncakeSrc)))
		t.Logf("%s: per-request %.4f, token-weighted %.4f", tt.file, perReq, tokens)
		if math.Round(perReq*1000) != math.Round(tt.perReq*1000) || math.Round(tokens*1000) != math.Round(tt.tokens*1000) {
			t.Errorf("%s: reuse %.4f per request, %.4f of tokens; want %.3f and %.3f to three places", tt.file, perReq, tokens, tt.perReq, tt.tokens)
		}
	}
}

// blockReuse returns the prefix reuse the sessions' first turns imply
// with an unbounded cache: a prompt's hit is its leading blocks an
// earlier prompt held, and its tail block too when every block before it
// hit; it returns the mean hit share per prompt, Σ hit/input over n, and
// the share of all tokens, Σ hit / Σ input.
func blockReuse(ss []*trace.Session) (perReq, tokens float64) {
	seen := map[uint64]bool{}
	var sumShare, hitTokens, inTokens float64
	for _, s := range ss {
		tu := s.Turns[0]
		hit := 0
		for hit < len(tu.Blocks) && seen[tu.Blocks[hit]] {
			hit++
		}
		tok := hit * tu.BlockTokens
		if hit == len(tu.Blocks) && tu.TailBlock != nil && seen[*tu.TailBlock] {
			tok = tu.InputTokens
		}
		for _, id := range tu.Blocks {
			seen[id] = true
		}
		if tu.TailBlock != nil {
			seen[*tu.TailBlock] = true
		}
		sumShare += float64(tok) / float64(tu.InputTokens)
		hitTokens += float64(tok)
		inTokens += float64(tu.InputTokens)
	}
	return sumShare / float64(len(ss)), hitTokens / inTokens
}

// TestMooncakeRowErrors checks that malformed lines are refused naming
// the file and line.
func TestMooncakeRowErrors(t *testing.T) {
	t.Parallel()
	const ok = `{"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [0, 1]}` + "\n"
	tests := []struct {
		reason, data, want string
	}{
		{"not JSON", ok + "{\"timestamp\": 3,\n", "m.jsonl:2: not a Mooncake row: unexpected end of JSON input"},
		{"wrong type", ok + `{"timestamp": "3", "input_length": 1, "output_length": 1}`, "m.jsonl:2: not a Mooncake row: json: cannot unmarshal string"},
		{"missing length", ok + `{"timestamp": 3, "input_length": 1}`, "m.jsonl:2: missing timestamp, input_length or output_length"},
		{"too few ids", ok + `{"timestamp": 3, "input_length": 1025, "output_length": 1, "hash_ids": [1, 2]}`, "m.jsonl:2: 2 hash_ids for input_length 1025: want ⌈1025/512⌉ = 3"},
		{"too many ids", ok + `{"timestamp": 3, "input_length": 512, "output_length": 1, "hash_ids": [1, 2]}`, "m.jsonl:2: 2 hash_ids for input_length 512: want ⌈512/512⌉ = 1"},
		{"huge id", ok + `{"timestamp": 3, "input_length": 5, "output_length": 1, "hash_ids": [1099511627776]}`, "m.jsonl:2: hash_ids[0] = 1099511627776: want at most 2^40-1"},
		{"infinite time", ok + `{"timestamp": 1e300, "input_length": 5, "output_length": 1}`, "m.jsonl:2: timestamp: time 1e+297 s"},
		{"no input", ok + `{"timestamp": 3, "input_length": 0, "output_length": 1}`, "m.jsonl:2: input 0 tokens"},
		{"out of order, after a blank line", `{"timestamp": 5000, "input_length": 5, "output_length": 1}` + "\n\n" + ok, "m.jsonl:3: arrival -5s is before the previous row's (line 1) by 5s"},
	}
	for _, tt := range tests {
		st := NewMooncake(strings.NewReader(tt.data), Options{Name: "m.jsonl"})
		var err error
		for err == nil {
			_, err = st.Next()
		}
		if errors.Is(err, io.EOF) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.reason, err, tt.want)
		}
	}
}

// FuzzMooncakeRow checks that no line makes the Mooncake parser panic,
// and that what it accepts makes a valid session.
func FuzzMooncakeRow(f *testing.F) {
	f.Add(`{"timestamp": 0, "input_length": 6758, "output_length": 500, "hash_ids": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]}`)
	f.Add(`{"timestamp": 27.5, "input_length": 13, "output_length": 0, "hash_ids": [43923]}`)
	f.Add(`{"timestamp": 3, "input_length": 1024, "output_length": 1, "hash_ids": [1, 2]}`)
	f.Fuzz(func(t *testing.T, line string) {
		var q request
		if parseMooncakeRow([]byte(line), &q) != nil {
			return
		}
		s := newStream(nil, Options{Scope: 3}).session(&q)
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted %q into an invalid session: %v", line, err)
		}
	})
}

// BenchmarkMooncake measures import speed over the Mooncake conversation
// trace (12,031 rows, 3 MB) held in memory, in rows per second.
func BenchmarkMooncake(b *testing.B) {
	data, err := os.ReadFile(sharedTrace(b, "mooncake/conversation_trace.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	rows := 0
	for b.Loop() {
		st := NewMooncake(bytes.NewReader(data), Options{})
		for {
			if _, err := st.Next(); err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
			rows++
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// rowsReader generates n Mooncake rows of 24 blocks each on demand, so a
// test can stream a large trace that is never in memory whole.
type rowsReader struct {
	n, i int
	buf  bytes.Buffer
}

// Read fills p with the next generated rows.
func (r *rowsReader) Read(p []byte) (int, error) {
	for r.buf.Len() < len(p) && r.i < r.n {
		fmt.Fprintf(&r.buf, `{"timestamp": %d, "input_length": 12035, "output_length": 342, "hash_ids": [0`, r.i*100)
		for k := 1; k < 24; k++ {
			fmt.Fprintf(&r.buf, ", %d", r.i*24+k)
		}
		r.buf.WriteString("]}\n")
		r.i++
	}
	if r.buf.Len() == 0 {
		return 0, io.EOF
	}
	return r.buf.Read(p)
}

// TestStreamMemory streams 100,000 generated Mooncake rows (24 blocks
// each; tens of MB of sessions if they were all kept) and checks the heap
// in use stays within 4 MiB of where it started. It does not run in
// parallel, so no other test's allocations count.
func TestStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 100,000 rows")
	}
	const n = 100_000
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	st := NewMooncake(&rowsReader{n: n}, Options{})
	var sink []*trace.Session // the last session only, as a writer would hold
	for i := 0; ; i++ {
		s, err := st.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sink = append(sink[:0], s)
		if i%10_000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if st.Sessions() != n {
		t.Fatalf("%d sessions, want %d", st.Sessions(), n)
	}
	t.Logf("heap grew by at most %d KiB over %d rows", (peak-base)/1024, n)
	if peak-base > 4<<20 {
		t.Errorf("heap grew by %d KiB streaming %d rows, want under 4 MiB", (peak-base)/1024, n)
	}
}
