package workload

import (
	"fmt"
	"math/rand/v2"

	"surge/content"
	"surge/spec"
	"surge/trace"
)

// mixture draws names with the shares of their weights.
type mixture struct {
	names []string
	cum   []float64 // running sums of the weights, the last their total
}

// newMixture returns the mixture of ws; nil for none.
func newMixture(ws []spec.Weight) *mixture {
	if len(ws) == 0 {
		return nil
	}
	m := &mixture{}
	total := 0.0
	for _, w := range ws {
		total += w.Weight
		m.names = append(m.names, w.Name)
		m.cum = append(m.cum, total)
	}
	return m
}

// draw returns a name, using one uniform draw of r.
func (m *mixture) draw(r *rand.Rand) string {
	u := r.Float64() * m.cum[len(m.cum)-1]
	for i, c := range m.cum {
		if u < c {
			return m.names[i]
		}
	}
	return m.names[len(m.names)-1]
}

// clientContent is what a client's prompts are written in: a fixed style
// and language, or mixtures to draw each turn's from.
type clientContent struct {
	style  content.Style // the style of system prompts and documents, and of turns without a mixture
	lang   content.Language
	styles *mixture // nil: every turn has style
	langs  *mixture // nil: every turn has lang
}

// newClientContent resolves c's prompt, content and language. A client
// with a content mix writes its system prompts and retrieved documents in
// the mixed style; one with several languages writes them in English.
func newClientContent(c *spec.Client) clientContent {
	cc := clientContent{style: content.Style(c.Prompt), lang: content.English,
		styles: newMixture(c.Content), langs: newMixture(c.Language)}
	if cc.styles != nil {
		cc.style = content.StyleMixed
	}
	if len(c.Language) == 1 {
		cc.lang, cc.langs = content.Language(c.Language[0].Name), nil
	}
	return cc
}

// check reports a style or language the synthesiser cannot write.
func (cc *clientContent) check(s *content.Synth) error {
	styles, langs := []string{string(cc.style)}, []string{string(cc.lang)}
	if cc.styles != nil {
		styles = cc.styles.names
	}
	if cc.langs != nil {
		langs = cc.langs.names
	}
	for _, st := range styles {
		for _, l := range langs {
			if err := s.CanWrite(content.Style(st), content.Language(l)); err != nil {
				return fmt.Errorf("prompt text: %w (build it with NeedsTasks)", err)
			}
		}
	}
	return nil
}

// label draws the style and language of a turn into t, using r only for
// the mixtures a client has, so that clients without them draw as before.
func (cc *clientContent) label(r *rand.Rand, t *trace.Turn) {
	t.Style = string(cc.style)
	if cc.styles != nil {
		t.Style = cc.styles.draw(r)
	}
	lang := cc.lang
	if cc.langs != nil {
		lang = content.Language(cc.langs.draw(r))
	}
	if lang != content.English {
		t.Language = string(lang)
	}
}

// turnLanguage returns the language of t's text.
func turnLanguage(t *trace.Turn) content.Language {
	if t.Language == "" {
		return content.English
	}
	return content.Language(t.Language)
}

// NeedsTasks reports whether s asks for text that only a Synth built with
// content.SynthConfig.Tasks has: a task style or a language other than
// English, in any client's prompt, content or language.
func NeedsTasks(s *spec.Spec) bool {
	for i := range s.Clients {
		c := &s.Clients[i]
		if content.IsTask(content.Style(c.Prompt)) {
			return true
		}
		for _, w := range c.Content {
			if content.IsTask(content.Style(w.Name)) {
				return true
			}
		}
		for _, w := range c.Language {
			if w.Name != string(content.English) {
				return true
			}
		}
	}
	return false
}
