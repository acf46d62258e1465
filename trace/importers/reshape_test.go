package importers

import (
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"surge/trace"
)

// sliceSource is a Source of given sessions, counting the reads.
type sliceSource struct {
	ss    []*trace.Session
	reads int
	err   error // returned after the sessions instead of io.EOF, if set
}

// Next returns the next session.
func (s *sliceSource) Next() (*trace.Session, error) {
	if s.reads == len(s.ss) {
		if s.err != nil {
			return nil, s.err
		}
		return nil, io.EOF
	}
	s.reads++
	return s.ss[s.reads-1], nil
}

// at returns single-request sessions of client starting at the given
// offsets in seconds, indexed in order, each of 100 input and 10 output
// tokens.
func at(client string, secs ...float64) *sliceSource {
	src := &sliceSource{}
	for i, s := range secs {
		src.ss = append(src.ss, &trace.Session{Client: client, Index: i, AtUS: int64(s * 1e6),
			Turns: []trace.Turn{{InputTokens: 100, OutputTokens: 10, MaxTokens: 10, MinTokens: 10}}})
	}
	return src
}

// starts returns the start offsets of ss in seconds and their indexes.
func starts(ss []*trace.Session) (secs []float64, idx []int) {
	for _, s := range ss {
		secs = append(secs, float64(s.AtUS)/1e6)
		idx = append(idx, s.Index)
	}
	return secs, idx
}

// TestReshapeTime checks windows and scaling on start offsets.
func TestReshapeTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		r      Reshape
		want   []float64
		reads  int // sessions read from the source of six
	}{
		{"zero value keeps all", Reshape{}, []float64{0, 1, 2, 3, 4, 5}, 6},
		{"window starts the replay at its start", Reshape{From: 1500 * time.Millisecond, To: 4 * time.Second}, []float64{0.5, 1.5}, 5},
		{"open window end", Reshape{From: 4 * time.Second}, []float64{0, 1}, 6},
		{"speed 2 halves every gap", Reshape{Scale: 0.5}, []float64{0, 0.5, 1, 1.5, 2, 2.5}, 6},
		{"scale after the window", Reshape{From: 2 * time.Second, Scale: 2}, []float64{0, 2, 4, 6}, 6},
		{"a limit stops reading", Reshape{Limit: 2}, []float64{0, 1}, 2},
		{"a limit counts kept sessions", Reshape{From: 3 * time.Second, Limit: 2}, []float64{0, 1}, 5},
	}
	for _, tt := range tests {
		src := at("c", 0, 1, 2, 3, 4, 5)
		got, idx := starts(drain(t, NewReshaped(src, tt.r)))
		if !reflect.DeepEqual(got, tt.want) || src.reads != tt.reads {
			t.Errorf("%s: starts %v after %d reads, want %v after %d", tt.reason, got, src.reads, tt.want, tt.reads)
		}
		for i, k := range idx {
			if k != i {
				t.Errorf("%s: indexes %v, want 0, 1, …", tt.reason, idx)
				break
			}
		}
		// Pushing the sessions through Apply keeps the same ones.
		rs := NewReshaped(nil, tt.r)
		var pushed []float64
		for _, s := range at("c", 0, 1, 2, 3, 4, 5).ss {
			if rs.Apply(s) {
				pushed = append(pushed, float64(s.AtUS)/1e6)
			}
		}
		if !reflect.DeepEqual(pushed, tt.want) {
			t.Errorf("%s: Apply kept starts %v, want %v", tt.reason, pushed, tt.want)
		}
	}
}

// TestReshapeRate rescales to a target mean rate: observed (n − 1)/span,
// here 4 starts over 6 s = 0.5/s, scaled to 2/s keeps the gaps' ratios.
func TestReshapeRate(t *testing.T) {
	t.Parallel()
	o, err := Observe(at("c", 10, 11, 13, 16))
	if err != nil || o.Sessions != 4 || o.First != 10*time.Second || o.Last != 16*time.Second || o.Rate() != 0.5 {
		t.Fatalf("Observe: %+v (rate %g), %v; want 4 sessions over 10-16 s, rate 0.5/s", o, o.Rate(), err)
	}
	got, _ := starts(drain(t, NewReshaped(at("c", 10, 11, 13, 16), Reshape{From: 10 * time.Second, Scale: o.Rate() / 2})))
	if want := []float64{0, 0.25, 0.75, 1.5}; !reflect.DeepEqual(got, want) {
		t.Errorf("rescaled to 2/s: starts %v, want %v", got, want)
	}
	for _, secs := range [][]float64{{3}, {2, 2}, nil} {
		if o, _ := Observe(at("c", secs...)); o.Rate() != 0 {
			t.Errorf("starts %v: rate %g, want 0 (undefined)", secs, o.Rate())
		}
	}
}

// TestSample checks that sampling keeps about the fraction asked, the
// same sessions every time, nested across fractions, and other sessions
// for another client.
func TestSample(t *testing.T) {
	t.Parallel()
	const n = 10_000
	secs := make([]float64, n)
	for i := range secs {
		secs[i] = float64(i) // so a kept session's start names its source index
	}
	keep := func(client string, f float64) map[int64]bool {
		kept := map[int64]bool{}
		for _, s := range drain(t, NewReshaped(at(client, secs...), Reshape{Sample: f})) {
			kept[s.AtUS/1e6] = true
		}
		return kept
	}
	a, b, small := keep("a", 0.3), keep("a", 0.3), keep("a", 0.1)
	// Binomial(n, 0.3): σ = √(n·0.3·0.7) ≈ 46, so 4σ ≈ 183.
	if math.Abs(float64(len(a))-0.3*n) > 183 {
		t.Errorf("kept %d of %d at 0.3, want within 183 of %d", len(a), n, int(0.3*n))
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two samples at 0.3 differ")
	}
	for i := range small {
		if !a[i] {
			t.Fatalf("session %d kept at 0.1 but not at 0.3", i)
		}
	}
	if other := keep("b", 0.3); reflect.DeepEqual(a, other) {
		t.Error("clients a and b keep the same sessions")
	}
	got := drain(t, NewReshaped(at("a", secs...), Reshape{Sample: 0.3}))
	if last := got[len(got)-1]; last.Index != len(a)-1 {
		t.Errorf("the last kept session has index %d, want %d: kept sessions are numbered afresh", last.Index, len(a)-1)
	}
}

// TestCapTurn fits turns into a context, keeping output first.
func TestCapTurn(t *testing.T) {
	t.Parallel()
	tail := uint64(9)
	tests := []struct {
		reason  string
		n       int
		in, out int
		blocks  int // of 10 tokens, with a tail block when in has a rest
		wantIn  int
		wantOut int
		wantBl  int
		tail    bool
	}{
		{"fits exactly", 100, 90, 10, 9, 90, 10, 9, false},
		{"prompt cut, whole blocks kept, tail lost", 100, 95, 10, 9, 90, 10, 9, false},
		{"prompt cut inside a block", 100, 200, 15, 20, 85, 15, 8, false},
		{"output alone too long", 100, 50, 500, 5, 1, 99, 0, false},
		{"output kept, so the prompt is cut to its blocks", 100, 55, 60, 5, 40, 60, 4, false},
		{"a turn that fits keeps its tail", 100, 55, 45, 5, 55, 45, 5, true},
	}
	for _, tt := range tests {
		tu := trace.Turn{InputTokens: tt.in, OutputTokens: tt.out, MaxTokens: tt.out, MinTokens: tt.out, BlockTokens: 10, Blocks: make([]uint64, tt.blocks)}
		if tt.in%10 != 0 {
			tu.TailBlock = &tail
		}
		changed := capTurn(&tu, tt.n)
		if tu.InputTokens != tt.wantIn || tu.OutputTokens != tt.wantOut || tu.MaxTokens != tt.wantOut || tu.MinTokens != tt.wantOut ||
			len(tu.Blocks) != tt.wantBl || (tu.TailBlock != nil) != tt.tail || changed != (tt.in+tt.out > tt.n) {
			t.Errorf("%s: got %d+%d tokens, %d blocks, tail %v, changed %v; want %d+%d, %d blocks, tail %v",
				tt.reason, tu.InputTokens, tu.OutputTokens, len(tu.Blocks), tu.TailBlock != nil, changed, tt.wantIn, tt.wantOut, tt.wantBl, tt.tail)
		}
		if err := (&trace.Session{Turns: []trace.Turn{tu}}).Validate(); err != nil {
			t.Errorf("%s: capped turn is invalid: %v", tt.reason, err)
		}
	}
}

// TestReshapeCapped counts the sessions a context cap changed.
func TestReshapeCapped(t *testing.T) {
	t.Parallel()
	src := at("c", 0, 1, 2)
	src.ss[1].Turns[0].InputTokens = 500
	rs := NewReshaped(src, Reshape{MaxContext: 200})
	ss := drain(t, rs)
	if rs.Capped() != 1 || ss[1].Turns[0].InputTokens != 190 {
		t.Errorf("capped %d sessions, the long one to %d input tokens; want 1, 190", rs.Capped(), ss[1].Turns[0].InputTokens)
	}
}

// TestReshapeValidate lists every setting out of range.
func TestReshapeValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		r      Reshape
		want   []string
	}{
		{"zero value", Reshape{}, nil},
		{"empty window", Reshape{From: time.Second, To: time.Second}, []string{"window 1s to 1s"}},
		{"all wrong", Reshape{From: -1, Scale: math.NaN(), Sample: 1.5, MaxContext: 1, Limit: -1}, []string{"window", "scale NaN", "sample 1.5", "--max-context 1", "--limit -1"}},
	}
	for _, tt := range tests {
		err := tt.r.Validate()
		if (err == nil) != (tt.want == nil) {
			t.Errorf("%s: got %v, want errors %q", tt.reason, err, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: got %v, want it to mention %q", tt.reason, err, w)
			}
		}
	}
}

// TestMerge interleaves sources in start order, ties to the earlier
// source, and passes errors on.
func TestMerge(t *testing.T) {
	t.Parallel()
	ss := drain(t, Merge(at("a", 0, 2, 2, 5), at("b", 1, 2), at("c")))
	var got []string
	for _, s := range ss {
		got = append(got, s.Client)
	}
	if want := "a b a a b a"; strings.Join(got, " ") != want {
		t.Errorf("clients in order %v, want %s", got, want)
	}
	bad := at("b", 1)
	bad.err = errors.New("line 7: broken")
	m := Merge(at("a", 0, 3), bad)
	var err error
	for err == nil {
		_, err = m.Next()
	}
	if err.Error() != "line 7: broken" {
		t.Errorf("got %v, want the source's error", err)
	}
}
