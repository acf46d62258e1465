package server

import (
	"strings"
)

// answer is what a job's output says beyond its length: how many choices
// the request asked for, each of the same length and text, and whether
// that text is a JSON object or carries log-probabilities.
type answer struct {
	choices int // at least 1
	// fields are the members of a JSON answer, quoted (options.fields);
	// nil for plain text.
	fields      []string
	logprobs    bool
	topLogprobs int
	// stopped says the stop string stopWith cut the output:
	// finish_reason "stop", the Messages API's "stop_sequence".
	stopped  bool
	stopWith string
}

// newAnswer is the answer r's options ask for.
func newAnswer(r request) answer {
	return answer{choices: max(r.choices, 1), fields: r.fields, logprobs: r.logprobs, topLogprobs: r.topLogprobs}
}

// text is the text of output token i of every choice: its word, and in a
// JSON answer the punctuation around it. The answer's tokens are spread
// over its members in order, each taking a run of them: the first token
// of a run opens its member (`{"name":"`, or `","name":"` after
// another), the last answer token closes the object (`"}`). The
// punctuation rides on the words, so the answer has as many tokens as
// planned and its text is a JSON object whose values are the words (they
// need no escape). Reasoning and tool-call tokens are words alone.
func (j *job) text(i int) string {
	w := word(i)
	if len(j.fields) == 0 || i < j.reasoning || j.tool != "" {
		return w
	}
	a, n := i-j.reasoning, j.outputLen-j.reasoning
	p := min(len(j.fields), n)
	f := a * p / n
	var b strings.Builder
	if a == (f*n+p-1)/p { // the first token whose member is f
		if f == 0 {
			b.WriteByte('{')
		} else {
			b.WriteString(`",`)
		}
		b.WriteString(j.fields[f])
		b.WriteString(`:"`)
	}
	b.WriteString(w)
	if a == n-1 {
		b.WriteString(`"}`)
	}
	return b.String()
}

// textOf is the text of output tokens [from, to).
func (j *job) textOf(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		b.WriteString(j.text(i))
	}
	return b.String()
}

// cutAtStop ends the answer before the first token whose text completes
// one of stop, as vLLM leaves a stop string out of the output; the job
// then stops ("stop", not "length"). At least one token is generated, as
// the engine generates one at least. Reasoning is never cut.
func (j *job) cutAtStop(stop []string) {
	if len(stop) == 0 || j.tool != "" {
		return
	}
	longest := 0
	for _, s := range stop {
		longest = max(longest, len(s))
	}
	var text []byte
	for i := j.reasoning; i < j.outputLen; i++ {
		start := max(len(text)-longest, 0)
		text = append(text, j.text(i)...)
		for _, s := range stop {
			if strings.Contains(string(text[start:]), s) {
				j.outputLen, j.stopped, j.stopWith, j.length = max(i, 1), true, s, false
				j.reasoning = min(j.reasoning, j.outputLen)
				return
			}
		}
	}
}
