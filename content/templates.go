package content

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Sentence templates name their slots in braces; a capitalised slot name
// ({Agent}) capitalises the value's first letter. Slots:
//
//	agent thing place metric   the topic's vocabulary
//	act do                     a topic verb, past tense / base form
//	view viewb                 an opinion verb, past tense / base form
//	source when change         shared phrases: who reports, a time, rose/fell
//	year later                 a year in 1998–2019, then one after it
//	pct num months words       numbers: 2–60 (or 2.5), 120–98,000, 2–30, 100–600
//	name audience count        the topic's name, a readership, "three"
//
// Every template is one sentence ending in '.', '?' or '!' whose words are
// separated by single spaces, so each word boundary is a place where the
// tokenizers' pre-tokenizers always split (see pieces_count.go).

// statementTemplates are the sentences of passages and notes.
func statementTemplates() []string {
	return []string{
		"{Agent} {act} {thing} in {place} {when}.",
		"In {year}, {agent} {act} {thing} in {place}.",
		"{Agent} {view} {thing} after {months} months of public debate.",
		"According to {source}, {metric} {change} by {pct} percent {when}.",
		"{Source} found that {metric} in {place} {change} by {pct} percent between {year} and {later}.",
		"{Agent} planned to {do} {thing} by {year}, but the work was delayed.",
		"{Agent} {view} {thing}, while {agent} {view} it for different reasons.",
		"The debate over {thing} in {place} lasted for {months} months.",
		"Few observers expected {agent} to {do} {thing} so quickly.",
		"{Metric} in {place} reached a record level in {year}.",
		"When {agent} {act} {thing}, {metric} {change} by almost {pct} percent.",
		"{Agent} said that {thing} would change {place} in the coming years.",
		"It took {months} months for {agent} to {do} {thing}.",
		"Some people in {place} still doubt that {thing} was worth the cost.",
		"{Agent} described {thing} as a turning point for {place}.",
		"{Agent} and {agent} met in {place} to discuss {thing}.",
		"Between {year} and {later}, {metric} in {place} {change} steadily.",
		"The first results of {thing} surprised {agent}.",
		"A survey of {num} people in {place} showed strong interest in {thing}.",
		"{Agent} {view} the plan.",
		"{Metric} {change} again.",
		"{Agent} {act} it {when}.",
		"The budget for {thing} was about {pct} million dollars in {year}.",
		"Officials in {place} expect {metric} to stabilize within {months} months.",
		"Not everyone agreed with {agent} about {thing}.",
		"{Agent} {act} {thing} with help from {agent}.",
		"After {thing} began, {metric} in {place} {change} by {pct} percent.",
		"Critics said that {agent} had ignored {metric}.",
		"{Source} described {thing} as a success.",
		"In {place}, {agent} {view} {thing} at every public meeting.",
		"Nobody expected {metric} to change so fast.",
		"{Agent} hoped to {do} {thing} before {later}.",
	}
}

// questionTemplates close question prompts and often summaries.
func questionTemplates() []string {
	return []string{
		"Why did {agent} {viewb} {thing}?",
		"How did {metric} change after {year}?",
		"What are the main arguments for and against {thing}?",
		"How could {agent} improve {thing} over the next {months} months?",
		"Which factors best explain the change in {metric}?",
		"What should {agent} do next about {thing}?",
		"Is there evidence that {thing} affected {metric} in {place}?",
		"What role did {agent} play in these events?",
		"How does the situation in {place} compare with other places?",
		"What would happen to {metric} if {agent} stopped supporting {thing}?",
		"Was {thing} worth the cost, in your view?",
		"Can you explain why {metric} {change} in {place}?",
	}
}

// closeTemplates end a prompt of the given prose style.
func closeTemplates(style Style) []string {
	switch style {
	case StyleInstruction:
		return []string{
			"Keep the answer under {words} words.",
			"Use a neutral tone and avoid jargon.",
			"Write it for {audience}.",
			"End with a short list of open questions.",
			"Quote the figures exactly as they appear above.",
			"Format the answer as a numbered list.",
			"Do not add facts that are not in the notes.",
			"Please finish with a one-sentence conclusion about {name}.",
			"Mention {place} by name at least once.",
		}
	case StyleSummarize:
		return append(questionTemplates(),
			"What is the main point of the passage?",
			"Which figures in the passage matter most, and why?",
			"Focus on causes and effects rather than dates.",
			"Keep the summary under {words} words.",
			"Make sure the summary mentions {metric}.",
		)
	}
	return questionTemplates()
}

// headTemplates open a prompt of the given prose style, on a line of their own.
func headTemplates(style Style) []string {
	switch style {
	case StyleSummarize:
		return []string{
			"Summarize the following passage about {name} in {count} sentences.",
			"Read the text below and list its key points.",
			"Write a one-paragraph summary of this report on {name}.",
			"Give a short summary of the following notes on {name}.",
			"Condense this article about {name} into a few bullet points.",
			"Summarize the key facts below for {audience}.",
		}
	case StyleInstruction:
		return []string{
			"Write a short report on {name} for {audience}, based on the notes below.",
			"Draft an email to {audience} that explains the situation described below.",
			"Turn the following notes into a blog post about {name}.",
			"Prepare a briefing on {name} using only the facts below.",
			"Rewrite the text below in plain language for {audience}.",
			"Write a press release about {thing} using the information below.",
		}
	}
	return []string{
		"I have been reading about {name} and have a question.",
		"Here is some background on {name}.",
		"Please read the context below and answer the question at the end.",
		"Use the passage below to answer my question about {name}.",
	}
}

// shortTemplates are whole prompts of a style for lengths too small for a
// head and a passage.
func shortTemplates(style Style) []string {
	switch style {
	case StyleInstruction:
		return []string{
			"Write a haiku about {name}.", "List three facts about {name}.", "Explain {name} simply.",
			"Write a tweet about {thing}.", "Continue.", "Try again.", "Be brief.", "Help me.",
		}
	case StyleSummarize:
		return []string{
			"Summarize this.", "Summarize the news on {name}.", "Give me the short version.",
			"Summarize the story of {thing}.", "Shorten this.", "Help me.",
		}
	case StyleCode:
		return []string{
			"Write a Python function that reverses a list.", "Fix this bug.", "Explain recursion.",
			"What does this regex do?", "Sort a slice in Go.", "Write a SQL query that counts rows per day.",
			"Explain closures in JavaScript.", "Help me.", "Why?",
		}
	}
	return []string{
		"What is {name}?", "Why does {name} matter?", "What is new in {name}?",
		"Who works on {name}?", "Why?", "Any ideas?", "Can you help me?", "What happened?", "Is this true?",
	}
}

// fillerTexts are short generic sentences. They give every fill table
// pieces of 2 and 3 tokens, which makes every remainder reachable (see
// countTable.fit).
func fillerTexts() []string {
	return []string{
		"Sure.", "Indeed.", "Agreed.", "Noted.", "Exactly.", "Thanks.", "Right.", "Fine.",
		"Costs vary.", "Results differ.", "Opinions differ.", "Time will tell.", "That matters.",
		"Nothing changed.", "Plans changed.", "Views differ.", "It worked.", "Help me.", "Go on.",
	}
}

// oneWordTexts are one-word prompts, the only text of one-token prompts.
func oneWordTexts() []string {
	return []string{"Hello", "Hi", "Help", "Thanks", "Why", "Continue", "Yes", "No"}
}

// expander fills the slots of templates from one topic.
type expander struct {
	r     *rand.Rand
	t     *topic
	v     *shared
	agent string // last agent drawn, so that a sentence does not name it twice
	year  int    // last year drawn, so that {later} comes after it
}

// expand appends tmpl with its slots filled.
func (e *expander) expand(b []byte, tmpl string) []byte {
	e.agent, e.year = "", 0
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			return append(b, tmpl...)
		}
		b = append(b, tmpl[:i]...)
		j := i + strings.IndexByte(tmpl[i:], '}')
		name := tmpl[i+1 : j]
		val := e.slot(strings.ToLower(name[:1]) + name[1:])
		if name[0] >= 'A' && name[0] <= 'Z' {
			val = capitalize(val)
		}
		b = append(b, val...)
		tmpl = tmpl[j+1:]
	}
}

// slot returns a value for the named slot.
func (e *expander) slot(name string) string {
	r, t, v := e.r, e.t, e.v
	switch name {
	case "agent":
		a := pick(r, t.agents)
		for a == e.agent {
			a = pick(r, t.agents)
		}
		e.agent = a
		return a
	case "thing":
		return pick(r, t.things)
	case "place":
		return pick(r, t.places)
	case "metric":
		return pick(r, t.metrics)
	case "act":
		return pick(r, t.verbs)[0]
	case "do":
		return pick(r, t.verbs)[1]
	case "view":
		return pick(r, v.views)[0]
	case "viewb":
		return pick(r, v.views)[1]
	case "source":
		return pick(r, v.sources)
	case "when":
		return pick(r, v.whens)
	case "change":
		return pick(r, v.changes)
	case "audience":
		return pick(r, v.audiences)
	case "count":
		return pick(r, v.counts)
	case "name":
		return t.name
	}
	return e.number(name)
}

// number returns a value for a numeric slot.
func (e *expander) number(name string) string {
	r := e.r
	switch name {
	case "year":
		e.year = 1998 + r.IntN(22)
		return strconv.Itoa(e.year)
	case "later":
		if e.year == 0 {
			e.year = 1998 + r.IntN(22)
		}
		return strconv.Itoa(e.year + 1 + r.IntN(2024-e.year))
	case "pct":
		p := 2 + r.IntN(59)
		if r.IntN(4) == 0 {
			return strconv.Itoa(p) + ".5"
		}
		return strconv.Itoa(p)
	case "num":
		return thousands(120 + r.IntN(97881))
	case "months":
		return strconv.Itoa(2 + r.IntN(29))
	case "words":
		return strconv.Itoa(100 + 50*r.IntN(11))
	}
	panic("content: unknown template slot {" + name + "}")
}

// pick returns a uniformly chosen element of xs.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// capitalize upper-cases the first byte of an ASCII phrase.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
