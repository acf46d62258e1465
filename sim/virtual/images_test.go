package virtual

import (
	"testing"

	"surge/trace"
)

// TestImagesPrefill checks images are prompt tokens the engine prefills
// in virtual time: a turn's record counts its images (its parent's among
// them) and their tokens apart from its text, the engine's prompt holds
// both, and the first token comes later by their prefill.
func TestImagesPrefill(t *testing.T) {
	images := []trace.Image{{W: 640, H: 480, Tokens: 400, Seed: 1}, {W: 64, H: 64, Tokens: 16, Seed: 2, Format: "jpeg"}}
	session := func(with bool) *trace.Session {
		s := &trace.Session{Client: "c", Model: "m", API: "chat", Turns: []trace.Turn{
			{InputTokens: 40, OutputTokens: 5},
			{Parent: new(0), InputTokens: 60, OutputTokens: 5},
		}}
		if with {
			s.Turns[0].Images, s.Turns[1].Images = images, images[1:]
		}
		return s
	}
	cfg := Config{Cost: tokenCost{}}
	h := header(0)
	h.Clients[0].History = trace.HistoryPinned
	plain, _ := mustRun(t, cfg, h, []*trace.Session{session(false)})
	with, _ := mustRun(t, cfg, h, []*trace.Session{session(true)})
	p, w := byTurn(plain, 0), byTurn(with, 0)
	for k, want := range [][2]int{{2, 416}, {3, 432}} {
		r := w[k]
		if r.Images != want[0] || r.ImageTokens != want[1] {
			t.Errorf("turn %d: %d images, %d image tokens; want %v", k, r.Images, r.ImageTokens, want)
		}
		if r.ServerInputTokens != p[k].ServerInputTokens+want[1] || r.ClientInputTokens != p[k].ClientInputTokens || r.InputTokens != p[k].InputTokens {
			t.Errorf("turn %d: prompt %d/%d/%d with images, %d/%d/%d without", k,
				r.InputTokens, r.ClientInputTokens, r.ServerInputTokens, p[k].InputTokens, p[k].ClientInputTokens, p[k].ServerInputTokens)
		}
	}
	if w[0].TTFTUS <= p[0].TTFTUS {
		t.Errorf("TTFT %d µs with 416 image tokens, %d without", w[0].TTFTUS, p[0].TTFTUS)
	}
}
