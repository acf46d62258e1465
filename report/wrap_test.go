package report

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"surge/metrics"
)

func TestWrapWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		room int
		want []string
	}{
		{"", 10, []string{""}},                                                                 // an empty text is one empty line
		{"a b c", 10, []string{"a b c"}},                                                       // fits
		{"aaa bbb ccc", 7, []string{"aaa bbb", "ccc"}},                                         // breaks at the last space that fits
		{"aaaaaaaaaaaa b", 5, []string{"aaaaaaaaaaaa", "b"}},                                   // a word longer than a line stays whole
		{"1,234 ms ±2%", 8, []string{"1,234 ms", "±2%"}},                                       // numbers are never cut
		{"a  b\n c", 10, []string{"a b c"}},                                                    // runs of white space are one space
		{"±± ±±", 5, []string{"±±", "±±"}},                                                     // bytes are measured: "±± ±±" is 9
		{"p99.9 n ≥ 3,688", 8, []string{"p99.9", "n ≥ 3,688"}},                                 // nor a bound from its sign
		{"vllm:time_to_first_token_seconds", 10, []string{"vllm:time_to_first_token_seconds"}}, // names whole
	}
	for _, tt := range tests {
		if got := wrapWords(tt.text, tt.room); !slices.Equal(got, tt.want) {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", tt.text, tt.room, got, tt.want)
		}
	}
}

func TestPack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		parts []string
		room  int
		want  []string
	}{
		{[]string{"a", "b"}, 10, []string{"a · b"}},                            // side by side when they fit
		{[]string{"aaa", "bbb"}, 8, []string{"aaa", "bbb"}},                    // else one under the other
		{[]string{"aa", "bb", "cc"}, 9, []string{"aa · bb", "cc"}},             // as many a line as fit
		{[]string{"x", "one two three"}, 8, []string{"x", "one two", "three"}}, // a long part wraps at its spaces
	}
	for _, tt := range tests {
		if got := pack(tt.parts, tt.room); !slices.Equal(got, tt.want) {
			t.Errorf("pack(%q, %d) = %q, want %q", tt.parts, tt.room, got, tt.want)
		}
	}
}

// TestTextWidth checks that no line of a text report, with the engine's
// table after it, is wider than the width it is laid out in (TextWidth,
// a narrow terminal's MinTextWidth, a wide one's): the golden runs, and
// one whose every free text (measurement reasons, error messages, token
// findings) is long, which a wider terminal gives fewer lines.
func TestTextWidth(t *testing.T) {
	t.Parallel()
	long := summarize(t, "run")
	long.Measurement.Reasons = append(long.Measurement.Reasons, strings.Repeat("a reason of many words ", 12))
	long.Measurement.Verdict = metrics.MeasurementQuestionable
	long.All.Errors.Top = []metrics.Message{{Text: strings.Repeat("x", 200), Count: 1_000_000}, {Text: strings.Repeat("y ", 100), Count: 2}}
	long.All.Tokens.Findings = append(long.All.Tokens.Findings, strings.Repeat("finding ", 40))
	for name, s := range map[string]*metrics.Summary{
		"run": summarize(t, "run"), "killed": summarize(t, "killed"), "sessions": summarize(t, "sessions"), "long texts": long,
	} {
		lines := map[int]int{}
		for _, cols := range []int{MinTextWidth, 90, TextWidth, 160} {
			var buf bytes.Buffer
			if err := TextAt(&buf, s, cols); err != nil {
				t.Fatal(err)
			}
			if err := EngineTextAt(&buf, []EngineLatency{engineRowFor(s)}, cols); err != nil {
				t.Fatal(err)
			}
			for i, l := range strings.Split(buf.String(), "\n") {
				if w := width(l); w > cols {
					t.Errorf("%s at %d columns: line %d is %d columns wide:\n%s", name, cols, i+1, w, l)
				}
			}
			lines[cols] = strings.Count(buf.String(), "\n")
		}
		if name == "long texts" && !(lines[MinTextWidth] > lines[TextWidth] && lines[TextWidth] > lines[160]) {
			t.Errorf("%s: lines at 80, 100 and 160 columns %v: want fewer the wider", name, lines)
		}
	}
	var buf, at bytes.Buffer
	if err := Text(&buf, long); err != nil {
		t.Fatal(err)
	}
	if err := TextAt(&at, long, TextWidth); err != nil {
		t.Fatal(err)
	}
	if buf.String() != at.String() {
		t.Error("Text is not TextAt at TextWidth")
	}
}

func TestFitWidth(t *testing.T) {
	t.Parallel()
	for cols, want := range map[int]int{0: TextWidth, -1: TextWidth, 20: MinTextWidth, MinTextWidth - 1: MinTextWidth, 90: 90, 100: 100, 240: 240} {
		if got := FitWidth(cols); got != want {
			t.Errorf("FitWidth(%d) = %d, want %d", cols, got, want)
		}
	}
	f, err := os.CreateTemp(t.TempDir(), "report")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := WidthFor(f); got != TextWidth {
		t.Errorf("WidthFor(a file) = %d, want %d", got, TextWidth)
	}
	if got := WidthFor(&bytes.Buffer{}); got != TextWidth {
		t.Errorf("WidthFor(a buffer) = %d, want %d", got, TextWidth)
	}
}

// engineRowFor is an engine row of TTFT against s's, with the widest
// cells a row has: a bucket's range and an unmeasurable gap.
func engineRowFor(s *metrics.Summary) EngineLatency {
	hi := 15_000_000.0
	client := 11_135_000.0
	return EngineLatency{Metric: "ttft", Family: "sglang:time_to_first_token_seconds", Count: 1_234_567,
		Mean: &EngineMean{EngineUS: 3_082_000, ClientUS: &client, GapUS: ptr(-141_000)},
		Quantiles: []EngineQuantile{
			{P: 50, EngineUS: 2_389_000, BucketLoUS: 2_000_000, BucketHiUS: ptr(2_500_000), ClientUS: &client},
			{P: 99, EngineUS: 12_000_000, BucketLoUS: 10_000_000, BucketHiUS: &hi, TopBucket: true, ClientUS: &client},
		}}
}

// TestTextLeads checks the order of the text report: what ran, then the
// verdicts (measurement, SLOs, throughput, goodput), then the latency
// table and the rest.
func TestTextLeads(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := Text(&buf, summarize(t, "run")); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	order := []string{"run ", "requests ", "measurement: ", "SLOs        FAIL — 2 failed, 1 passed", "  FAIL  ttft p99", "throughput ", "goodput ", "\nms ", "\nerrors ", "\ncache "}
	last := -1
	for _, want := range order {
		i := strings.Index(out, want)
		if i < 0 || i < last {
			t.Fatalf("%q is missing or out of order (want %q) in\n%s", want, order, out)
		}
		last = i
	}
}

// TestTextTTFO checks that TTFO rows appear only when a reasoning channel
// set TTFO apart from TTFT: the run and sessions records have reasoning,
// the killed run's records have TTFO equal to TTFT.
func TestTextTTFO(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		want bool
	}{{"run", true}, {"sessions", true}, {"killed", false}} {
		var buf bytes.Buffer
		if err := Text(&buf, summarize(t, tt.name)); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, row := range []string{"\nTTFO ", "\nTTFO+lag ", "TTFO first turns", "TTFO later turns"} {
			if row[0] != '\n' && !strings.Contains(out, "TTFT first turns") {
				continue // no sessions table
			}
			if got := strings.Contains(out, row); got != tt.want {
				t.Errorf("%s: row %q shown %v, want %v:\n%s", tt.name, strings.TrimSpace(row), got, tt.want, out)
			}
		}
	}
}
