package workload

import (
	"strings"
	"testing"

	"surge/trace"
)

// TestCopyTurns: a client's copy fraction is on each of its turns, which
// are copy-style prompts of exactly their length asking for the passage
// verbatim; a chat client's follow-ups carry it too; a client without it
// plans no copying.
func TestCopyTurns(t *testing.T) {
	t.Parallel()
	s := parse(t, `
version: 1
seed: 5
requests: 60
rate: 10/s
clients:
  - {name: echo, model: m, input: {dist: uniform, min: 1, max: 2000}, output: 50, copy: 0.9}
  - {name: talk, model: m, input: 300, output: 50, copy: 0.5, session: {kind: chat, turns: 3}}
  - {name: plain, model: m, input: 100, output: 20}
`)
	if !NeedsTasks(s) {
		t.Fatal("NeedsTasks is false for a spec with copy")
	}
	tok, synth := o200kTasks(t)
	g, err := New(s, tok, synth, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"echo": 0.9, "talk": 0.5, "plain": 0}
	asks := 0
	_, err = g.Generate(t.Context(), func(ss *trace.Session) error {
		for k, tr := range ss.Turns {
			if tr.Copy != want[ss.Client] {
				t.Errorf("%s turn %d: copy %g, want %g", ss.Client, k, tr.Copy, want[ss.Client])
			}
			if ss.Client != "echo" {
				continue
			}
			if tr.Style != "copy" {
				t.Errorf("echo turn has style %q, want copy", tr.Style)
			}
			if got := len(tok.Encode(tr.Prompt)); got != tr.InputTokens {
				t.Errorf("copy prompt of %d tokens encodes to %d", tr.InputTokens, got)
			}
			if tr.InputTokens > 100 && (strings.Contains(tr.Prompt, "word for word") || strings.Contains(tr.Prompt, "exactly") ||
				strings.Contains(tr.Prompt, "verbatim") || strings.Contains(tr.Prompt, "without changing a word")) {
				asks++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if asks == 0 {
		t.Error("no copy prompt asks for the passage verbatim")
	}
}
