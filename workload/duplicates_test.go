package workload

import (
	"strings"
	"testing"

	"surge/trace"
)

// dupSpec is a client with a share of near-duplicates edited at where,
// and a client without any.
func dupSpec(where string) string {
	return `
version: 1
seed: 9
requests: 400
rate: 20/s
clients:
  - {name: dup, model: m, input: {dist: uniform, min: 40, max: 900}, output: 20,
     duplicates: {share: 30%, edit: ` + where + `, tokens: 8, within: 50}}
  - {name: plain, model: m, input: 100, output: 20}
`
}

// TestDuplicates generates near-duplicates edited at each place: about
// the share of the client's requests repeat one of its last 50, whole
// (lengths, style) with the prompt exactly as many tokens as the
// original's and, edited, different from it where the edit says; an
// exact copy is the original's prompt; the requests that are not copies
// are those the spec without duplicates gives.
func TestDuplicates(t *testing.T) {
	t.Parallel()
	tok, synth := o200k(t)
	gen := func(src string) map[string][]*trace.Session {
		g, err := New(parse(t, src), tok, synth, Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]*trace.Session{}
		if _, err := g.Generate(t.Context(), func(s *trace.Session) error {
			out[s.Client] = append(out[s.Client], s)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	plain := gen(strings.Replace(dupSpec("end"), ",\n     duplicates: {share: 30%, edit: end, tokens: 8, within: 50}", "", 1))
	for _, s := range plain["dup"] {
		if s.Turns[0].DuplicateOf != nil {
			t.Fatal("the spec without duplicates has copies")
		}
	}
	for _, where := range []string{"none", "start", "middle", "end"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			got := gen(dupSpec(where))
			dups := 0
			for i, s := range got["dup"] {
				tr, base := s.Turns[0], plain["dup"][i].Turns[0]
				if tr.DuplicateOf == nil {
					if tr.Prompt != base.Prompt || tr.InputTokens != base.InputTokens {
						t.Errorf("session %d is no copy but differs from the spec's without duplicates", i)
					}
					continue
				}
				dups++
				j := *tr.DuplicateOf
				orig := plain["dup"][j].Turns[0]
				if j >= s.Index || j < s.Index-50 {
					t.Errorf("session %d copies %d, not one of its last 50", s.Index, j)
				}
				if tr.InputTokens != orig.InputTokens || tr.OutputTokens != orig.OutputTokens || tr.Style != orig.Style {
					t.Errorf("session %d: %d/%d tokens %s, the original %d/%d %s", s.Index, tr.InputTokens, tr.OutputTokens, tr.Style, orig.InputTokens, orig.OutputTokens, orig.Style)
				}
				if n := len(tok.Encode(tr.Prompt)); n != tr.InputTokens {
					t.Errorf("session %d: the copy's prompt is %d tokens, planned %d", s.Index, n, tr.InputTokens)
				}
				shared := commonBytes(tr.Prompt, orig.Prompt)
				switch where {
				case "none":
					if tr.Prompt != orig.Prompt {
						t.Errorf("session %d: an exact copy differs from session %d", s.Index, j)
					}
				case "start":
					if tr.Prompt == orig.Prompt || shared > len(orig.Prompt)/2 {
						t.Errorf("session %d: a start edit keeps %d of %d bytes in front", s.Index, shared, len(orig.Prompt))
					}
				case "end":
					if tr.Prompt == orig.Prompt || shared < len(orig.Prompt)/2 {
						t.Errorf("session %d: an end edit keeps %d of %d bytes in front", s.Index, shared, len(orig.Prompt))
					}
				}
			}
			if n := len(got["dup"]); dups < n/5 || dups > 2*n/5 {
				t.Errorf("%d of %d requests are copies, want about 30%%", dups, n)
			}
			for i, s := range got["plain"] {
				if s.Turns[0].DuplicateOf != nil || s.Turns[0].Prompt != plain["plain"][i].Turns[0].Prompt {
					t.Errorf("plain session %d changed", i)
				}
			}
		})
	}
}

// commonBytes is the length of the bytes a and b begin with alike.
func commonBytes(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
