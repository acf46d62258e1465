package fit

import "testing"

// TestClientSummary says what a client's fits found in one line.
func TestClientSummary(t *testing.T) {
	t.Parallel()
	c := Client{Name: "chat",
		Arrivals: ArrivalFit{N: 1200, Rate: 3.8951, Gaps: Choice{Best: Fit{Family: FamilyGamma, KS: 0.0214}, Grade: Good}},
		Lengths:  LengthFit{Input: Length{Choice: Choice{Grade: Fair}}, Output: Length{Choice: Choice{Grade: Poor}}},
	}
	want := "chat: 1200 arrivals, 3.895/s, gaps gamma (KS 0.021, good), input fair, output poor"
	if got := c.Summary(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
