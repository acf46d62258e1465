package driver

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"surge/openai"
	"surge/trace"
)

// salting is a run's salt: its text and tokens, the cut that makes room
// for it, and what each first message of the trace keeps behind it.
type salting struct {
	text   string
	tokens int
	cut    func(first string) (string, bool)
	kept   map[string]string // the trace's first messages, cut by New; read-only after
}

// firstMessage is the message that starts the conversation of turn t,
// sent through api, which the salt goes before: the system prompt if it
// has one (and its text), the first of an embeddings batch, else the
// user message (a rerank or score request's query, whose length the
// trace does not say: its InputTokens counts every pair); with its length by the trace (0 when it does not say),
// and whether it is the system prompt.
func firstMessage(api string, t *trace.Turn) (text string, tokens int, system bool) {
	switch {
	case api == openai.APIEmbeddings && len(t.Inputs) > 1:
		return t.Inputs[0], 0, false
	case api == openai.APIEmbeddings && len(t.Inputs) == 1:
		return t.Inputs[0], t.InputTokens, false
	case openai.Scores(api):
		return t.Prompt, 0, false
	case openai.Conversational(api) && t.System != "":
		return t.System, t.SystemTokens, true
	}
	return t.Prompt, t.InputTokens - t.SystemTokens, false
}

// newSalting prepares cfg's salt for sessions, sent through cfg.API or
// their own: it cuts every conversation's first message the trace holds,
// and refuses a trace with one shorter than the salt by the trace's
// count, or one the cut fails on, since it would be sent longer than the
// trace says. Without a salt it returns nil.
func newSalting(cfg Config, sessions []*trace.Session) (*salting, error) {
	if cfg.Salt == "" {
		return nil, nil
	}
	if cfg.Cut == nil || cfg.SaltTokens <= 0 {
		return nil, errors.New("config: a salt needs its length in tokens and the cut that makes room for it")
	}
	s := &salting{text: cfg.Salt, tokens: cfg.SaltTokens, cut: cfg.Cut, kept: map[string]string{}}
	byKey := map[string]*SaltProblem{} // one problem per client, kind and first message
	var problems []*SaltProblem
	note := func(p SaltProblem) {
		key := fmt.Sprint(p.Client, p.Uncut, p.System)
		q := byKey[key]
		if q == nil {
			q = &p
			byKey[key] = q
			problems = append(problems, q)
		}
		q.Count++
		if !p.Uncut && p.Tokens < q.Tokens {
			q.Session, q.Tokens = p.Session, p.Tokens
		}
	}
	for _, ss := range sessions {
		api := pick(cfg.API, ss.API)
		for k := range ss.Turns {
			t := &ss.Turns[k]
			if t.Parent != nil {
				continue
			}
			text, n, system := firstMessage(api, t)
			p := SaltProblem{Client: ss.Client, Session: ss.Index, Tokens: n, SaltTokens: s.tokens, System: system}
			// A length of 0 with text is one the trace does not say.
			if n < s.tokens && (n > 0 || text == "") {
				note(p)
				continue
			}
			if _, done := s.kept[text]; done || text == "" {
				continue // cut already, or to be written and cut at send time
			}
			kept, ok := s.cut(text)
			if !ok {
				p.Uncut = true
				note(p)
				continue
			}
			s.kept[text] = kept
		}
	}
	if len(problems) > 0 {
		return nil, &SaltError{Salt: s.text, Problems: problems}
	}
	return s, nil
}

// apply returns first, the first message of a conversation, with the salt
// in place of its first tokens, and by how many tokens that is longer
// than first: 0, or the salt's for a message written at send time that
// the cut fails on, which is then sent whole behind the salt.
func (s *salting) apply(first string) (string, int) {
	if s == nil {
		return first, 0
	}
	kept, ok := s.kept[first]
	if !ok {
		kept, ok = s.cut(first)
	}
	if !ok {
		return s.text + first, s.tokens
	}
	return s.text + kept, 0
}

// SaltError is New's refusal of a trace whose conversations cannot hold
// the run's salt within their prompts' lengths.
type SaltError struct {
	Salt     string
	Problems []*SaltProblem
}

// SaltProblem is one client's conversations that cannot hold the salt:
// too short (Tokens, the shortest first message's length, is less than
// SaltTokens), or, with Uncut, long enough but with no cut of their first
// message that keeps its length exact. System says the first message is
// the system prompt, Session is an example, Count how many there are.
type SaltProblem struct {
	Client     string
	Session    int
	Tokens     int
	SaltTokens int
	System     bool
	Uncut      bool
	Count      int
}

func (e *SaltError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the run's salt %q takes the place of the first %s of each conversation, so that prompts keep the lengths the trace gives: ", e.Salt, counted(e.Problems[0].SaltTokens, "token"))
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		what, start := "message", "start"
		if p.System {
			what = "system prompt"
		}
		if p.Count == 1 {
			start = "starts"
		}
		if p.Uncut {
			fmt.Fprintf(&b, "client %q: %s (session %d the first) %s with a %s that no cut makes room in to the token", p.Client, counted(p.Count, "conversation"), p.Session, start, what)
			continue
		}
		fmt.Fprintf(&b, "client %q: %s %s with a %s shorter than that (the shortest: session %d, %s)", p.Client, counted(p.Count, "conversation"), start, what, p.Session, counted(p.Tokens, "token"))
	}
	b.WriteString("; run with --salt none, or with ")
	if slices.ContainsFunc(e.Problems, func(p *SaltProblem) bool { return p.System }) {
		b.WriteString("longer system prompts (the spec's prefix length) or ")
	}
	b.WriteString("a longer input")
	return b.String()
}

// counted is n and the noun, plural unless n is 1.
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
