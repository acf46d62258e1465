package importers

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"surge/trace"
	"testing"
	"time"
)

// TestParsePyDict reads ServeGen PMFs and refuses malformed ones.
func TestParsePyDict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason, in string
		values     []int
		cum        []float64
		err        string
	}{
		{"empty is no law", "{}", nil, nil, ""},
		{"sorted by count", "{9: 0.25, 3: 0.5, 4: 0.25}", []int{3, 4, 9}, []float64{0.5, 0.75, 1}, ""},
		{"float counts and spaces", " { 2.0 :1 , 0: 1 } ", []int{0, 2}, []float64{1, 2}, ""},
		{"no colon", "{1 0.5}", nil, nil, "want key: probability"},
		{"fractional count", "{1.5: 1}", nil, nil, "want a whole number"},
		{"negative weight", "{1: -1, 2: 2}", nil, nil, "want a finite number ≥ 0"},
		{"zero sum", "{1: 0}", nil, nil, "positive finite sum"},
		{"not a dict", "[1, 2]", nil, nil, "want a dict literal"},
	}
	for _, tt := range tests {
		p, err := parsePyDict(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want an error with %q", tt.reason, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.reason, err)
		case tt.values == nil && p != nil:
			t.Errorf("%s: %+v, want nil", tt.reason, p)
		case tt.values != nil && (!slices.Equal(p.values, tt.values) || !slices.Equal(p.cum, tt.cum)):
			t.Errorf("%s: %+v, want values %v cum %v", tt.reason, p, tt.values, tt.cum)
		}
	}
}

// TestPMFSample checks drawn frequencies within 3% of the weights over
// 20,000 draws (binomial σ ≤ 0.35%), and that zero-weight values are
// never drawn.
func TestPMFSample(t *testing.T) {
	t.Parallel()
	p, err := parsePyDict("{1: 0.2, 2: 0, 5: 0.3, 7: 0.5}")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	count := map[int]int{}
	const n = 20000
	for range n {
		count[p.sample(r)]++
	}
	for v, w := range map[int]float64{1: 0.2, 2: 0, 5: 0.3, 7: 0.5} {
		if got := float64(count[v]) / n; math.Abs(got-w) > 0.03 || (w == 0 && count[v] > 0) {
			t.Errorf("value %d drawn %.3f of the time, want %.3f", v, got, w)
		}
	}
}

// TestServeGenWindows generates a Gamma window (λ 10/s, k 0.25, cv 2), a
// silent one and a Weibull window (λ 5/s, k 0.5, cv √5): arrival counts
// within 10% of λ·600 s (renewal-count σ ≈ cv·√(λT): 155 and 122), the
// Gamma gaps' cv within 10% of 2, every arrival inside its window.
func TestServeGenWindows(t *testing.T) {
	t.Parallel()
	const csv = "0,10,2,Gamma,0.25,99\n600,0.0,,,,\n1200,5,3,Weibull,0.5,0.01\n"
	sg, err := NewServeGen(strings.NewReader(csv), nil, ServeGenOptions{Options: Options{Client: "c"}, Seed: 3, Input: 100, Output: 10})
	if err != nil {
		t.Fatal(err)
	}
	ss := drain(t, sg)
	var gamma, weibull []float64
	for _, s := range ss {
		switch at := s.At(); {
		case at < 600*time.Second:
			gamma = append(gamma, at.Seconds())
		case at >= 1200*time.Second && at < 1800*time.Second:
			weibull = append(weibull, at.Seconds())
		default:
			t.Fatalf("arrival at %v, in the silent window or past the end", at)
		}
		if tu := s.Turns[0]; tu.InputTokens != 100 || tu.OutputTokens != 10 || tu.MinTokens != 10 || !tu.IgnoreEOS {
			t.Fatalf("turn %+v: want the default 100 in and exactly 10 out", tu)
		}
	}
	if n := float64(len(gamma)); math.Abs(n-6000)/6000 > 0.1 {
		t.Errorf("gamma window: %v arrivals, want 6000 within 10%%", n)
	}
	if n := float64(len(weibull)); math.Abs(n-3000)/3000 > 0.1 {
		t.Errorf("weibull window: %v arrivals, want 3000 within 10%%", n)
	}
	if cv := gapCV(gamma); math.Abs(cv-2)/2 > 0.1 {
		t.Errorf("gamma window: gap cv %.3f, want 2 within 10%%", cv)
	}
}

// TestServeGenReasoningAndModalities reads the dataset keys of ServeGen's
// reasoning and multimodal models: a request's reasoning is its
// reason_ratio of its output, rounded, and its input the sum of its text,
// image, audio and video tokens, each drawn from its PMF.
func TestServeGenReasoningAndModalities(t *testing.T) {
	t.Parallel()
	const csv = "0,20,1,Gamma,1,0.05\n"
	for _, tt := range []struct {
		reason, dataset string
		check           func(trace.Turn) bool
	}{
		{"reasoning: 0.75 or 0.25 of 400 output tokens",
			`{"0": {"input_tokens": "{50: 1.0}", "output_tokens": "{400: 1.0}", "reason_ratio": "{0.75: 0.5, 0.25: 0.5}"}}`,
			func(tu trace.Turn) bool {
				return tu.InputTokens == 50 && tu.OutputTokens == 400 && (tu.ReasoningTokens == 300 || tu.ReasoningTokens == 100)
			}},
		{"multimodal: text 372 or 136, one image of 1196 tokens apart from them, no audio or video",
			`{"0": {"text_tokens": "{136: 0.5, 372: 0.5}", "image_tokens": "{1196: 1.0}", "audio_tokens": "{0: 1.0}", "video_tokens": "{0: 1.0}", "image_count": "{1: 1.0}", "output_tokens": "{30: 1.0}"}}`,
			func(tu trace.Turn) bool {
				return (tu.InputTokens == 136 || tu.InputTokens == 372) && tu.OutputTokens == 30 && tu.ReasoningTokens == 0 &&
					len(tu.Images) == 1 && tu.Images[0].Tokens == 1196 && tu.Images[0].W == 980 && tu.Images[0].H == 980
			}},
		{"multimodal: 1197 image tokens over two images, 599 and 598; audio in the input",
			`{"0": {"text_tokens": "{100: 1.0}", "image_tokens": "{1197: 1.0}", "audio_tokens": "{7: 1.0}", "image_count": "{2: 1.0}", "output_tokens": "{30: 1.0}"}}`,
			func(tu trace.Turn) bool {
				return tu.InputTokens == 107 && len(tu.Images) == 2 && tu.Images[0].Tokens == 599 && tu.Images[1].Tokens == 598 &&
					tu.Images[0].Seed != tu.Images[1].Seed && tu.Images[0].W == 28*25
			}},
		{"multimodal: no image tokens, no images",
			`{"0": {"text_tokens": "{100: 1.0}", "image_tokens": "{0: 1.0}", "image_count": "{0: 1.0}", "output_tokens": "{30: 1.0}"}}`,
			func(tu trace.Turn) bool { return tu.InputTokens == 100 && tu.Images == nil }},
	} {
		sg, err := NewServeGen(strings.NewReader(csv), strings.NewReader(tt.dataset), ServeGenOptions{Options: Options{Client: "c"}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		ss := drain(t, sg)
		if !sg.HasLengths() || len(ss) < 100 {
			t.Fatalf("%s: lengths %v, %d requests", tt.reason, sg.HasLengths(), len(ss))
		}
		for _, s := range ss {
			if !tt.check(s.Turns[0]) {
				t.Fatalf("%s: turn %+v", tt.reason, s.Turns[0])
			}
		}
	}
	if _, err := parseRatios("{1.5: 1}"); err == nil || !strings.Contains(err.Error(), "want a share from 0 to 1") {
		t.Errorf("a ratio above 1: %v", err)
	}
}

// gapCV returns the coefficient of variation of the gaps between sorted
// times.
func gapCV(ts []float64) float64 {
	var sum, sq float64
	n := float64(len(ts) - 1)
	for i := 1; i < len(ts); i++ {
		g := ts[i] - ts[i-1]
		sum += g
		sq += g * g
	}
	mean := sum / n
	return math.Sqrt(sq/n-mean*mean) / mean
}

// TestServeGenRange checks that a time range generates the same requests
// as the whole file does within it, and that lengths follow the block in
// force.
func TestServeGenRange(t *testing.T) {
	t.Parallel()
	const csv = "0,2,1,Gamma,1,0.5\n600,3,1,Gamma,1,0.33\n1200,1,1,Weibull,1.2,1\n"
	const lengths = `{"0": {"input_tokens": "{7: 1}", "output_tokens": "{8: 1}"},
		"700": {"input_tokens": "{}", "output_tokens": "{}"},
		"900": {"input_tokens": "{70: 1}", "output_tokens": "{0: 1}", "reason_ratio": "{0.5: 1}"}}`
	gen := func(from, to time.Duration) []string {
		sg, err := NewServeGen(strings.NewReader(csv), strings.NewReader(lengths), ServeGenOptions{Seed: 9, From: from, To: to})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range drain(t, sg) {
			tu := s.Turns[0]
			want := 7
			if s.At() >= 900*time.Second {
				want = 70
			}
			if tu.InputTokens != want || (want == 7) != (tu.OutputTokens == 8) || tu.OutputTokens < 1 {
				t.Fatalf("request at %v: %d in, %d out; want the lengths of the block in force", s.At(), tu.InputTokens, tu.OutputTokens)
			}
			out = append(out, fmt.Sprint(s.AtUS, tu.InputTokens, tu.OutputTokens))
		}
		return out
	}
	all, part := gen(0, 0), gen(650*time.Second, 1250*time.Second)
	var want []string
	for _, s := range all {
		var at int64
		fmt.Sscan(s, &at)
		if at >= 650e6 && at < 1250e6 {
			want = append(want, s)
		}
	}
	if len(want) == 0 || !slices.Equal(part, want) {
		t.Errorf("range 650-1250 s: %d requests, want the %d of the whole file there", len(part), len(want))
	}
}

// TestServeGenBadWindows checks malformed and overlapping windows: a
// RowError naming the line, or skipped and counted.
func TestServeGenBadWindows(t *testing.T) {
	t.Parallel()
	const csv = "0,1,1,Gamma,1,1\n" +
		"600,1,1,Poisson,1,1\n" + // line 2: unknown pattern
		"300,1,1,Gamma,1,1\n" + // line 3: overlaps the window at 0
		"1200,x,1,Gamma,1,1\n" + // line 4: bad rate
		"1800,1,1\n" + // line 5: short
		"2400,2,,,,\n" + // line 6: rate without a pattern
		"3000,1,1,Gamma,0,1\n" // line 7: zero shape
	sg, err := NewServeGen(strings.NewReader(csv), nil, ServeGenOptions{Options: Options{Name: "w.csv", SkipBad: true}, Input: 1, Output: 1})
	if err != nil {
		t.Fatal(err)
	}
	drain(t, sg)
	var lines []int
	for _, e := range sg.Skipped().First {
		lines = append(lines, e.Line)
	}
	if sg.Skipped().Rows != 6 || !slices.Equal(lines, []int{2, 3, 4, 5, 6}) {
		t.Errorf("skipped %d at %v, want 6 from line 2", sg.Skipped().Rows, lines)
	}
	sg, _ = NewServeGen(strings.NewReader(csv), nil, ServeGenOptions{Options: Options{Name: "w.csv"}})
	for {
		if _, err = sg.Next(); err != nil {
			break
		}
	}
	var re *RowError
	if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), `w.csv:2: pattern "poisson"`) {
		t.Errorf("got %v, want a RowError at w.csv:2", err)
	}
}

// TestServeGenShared imports every client file of the shared ServeGen
// language traces, with its dataset when there is one: every window is
// read and checked, and the first 10 s generated.
func TestServeGenShared(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(tracesDir, "servegen/language/*/*-trace.csv"))
	if len(files) == 0 {
		t.Skip("no shared ServeGen traces")
	}
	withLengths, requests := 0, 0
	for _, path := range files {
		w, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var lengths io.Reader
		if d, err := os.Open(strings.TrimSuffix(path, "-trace.csv") + "-dataset.json"); err == nil {
			lengths = d
			defer d.Close()
		}
		sg, err := NewServeGen(w, lengths, ServeGenOptions{Options: Options{Name: path, Client: filepath.Base(path)}, To: 10 * time.Second, Input: 1024, Output: 256})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		requests += len(drain(t, sg))
		w.Close()
		if sg.HasLengths() {
			withLengths++
		}
	}
	t.Logf("%d client files, %d with length PMFs, %d requests in their first 10 s", len(files), withLengths, requests)
	if len(files) != 314 || withLengths == 0 || requests == 0 {
		t.Errorf("%d files, %d with lengths, %d requests: want 314, some, some", len(files), withLengths, requests)
	}
}

// FuzzServeGenWindow checks that an accepted window has a sampler whose
// gaps are finite and not negative, or no traffic.
func FuzzServeGenWindow(f *testing.F) {
	f.Add("0,5.26,0.92,Gamma,1.17,0.16")
	f.Add("142800,1.31,6.03,Weibull,0.349,0.0176")
	f.Add("600,0.0,,,,")
	f.Fuzz(func(t *testing.T, line string) {
		w, err := parseServeGenWindow(line)
		if err != nil || w.gap == nil {
			return
		}
		r := rand.New(rand.NewPCG(1, 1))
		for range 10 {
			if g := w.gap(r); !(g >= 0) || math.IsInf(g, 0) {
				t.Fatalf("%q: gap %g", line, g)
			}
		}
	})
}

// FuzzPyDict checks that an accepted PMF samples only its own values.
func FuzzPyDict(f *testing.F) {
	f.Add("{224: 0.0003, 225: 0.01}")
	f.Add("{0.0: 1e-300}")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePyDict(s)
		if err != nil || p == nil {
			return
		}
		r := rand.New(rand.NewPCG(1, 1))
		for range 10 {
			if v := p.sample(r); !slices.Contains(p.values, v) || v < 0 || v > maxTokens {
				t.Fatalf("%q sampled %d", s, v)
			}
		}
	})
}
