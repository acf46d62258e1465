package server

import (
	"strconv"
)

// The log-probabilities the engine reports are made up, as its words
// are, but in the documented shapes: the sampled token's, then
// top_logprobs alternatives, the sampled token first and each other
// less likely than the one before.

// logprob is the log-probability of alternative k (0: the sampled
// token) of output token i.
func logprob(i, k int) float64 {
	return -0.01*float64(1+i%13) - 1.5*float64(k)
}

// alternative is the text of alternative k of output token i, whose own
// text is text.
func alternative(text string, i, k int) string {
	if k == 0 {
		return text
	}
	return word(i + k)
}

// appendLogprobs appends a chunk's logprobs member for output token i of
// choice c: null when the request asked for none; chat's
// {"content": [{token, logprob, bytes, top_logprobs}]}; completions'
// {"tokens", "token_logprobs", "top_logprobs", "text_offset"}, the offset
// counting the choice's text before the token.
func (rp *reply) appendLogprobs(dst []byte, c, i int) []byte {
	j := &rp.st.job
	if !j.logprobs {
		return append(dst, `,"logprobs":null`...)
	}
	text := j.text(i)
	if rp.req.chat() {
		dst = append(dst, `,"logprobs":{"content":[`...)
		dst = appendTokenLogprob(dst, text, i, j.topLogprobs)
		return append(dst, "]}"...)
	}
	dst = append(dst, `,"logprobs":{"tokens":[`...)
	dst = strconv.AppendQuote(dst, text)
	dst = append(dst, `],"token_logprobs":[`...)
	dst = strconv.AppendFloat(dst, logprob(i, 0), 'f', -1, 64)
	dst = append(dst, `],"top_logprobs":[{`...)
	for k := range max(j.topLogprobs, 1) {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendQuote(dst, alternative(text, i, k))
		dst = append(dst, ':')
		dst = strconv.AppendFloat(dst, logprob(i, k), 'f', -1, 64)
	}
	dst = append(dst, `}],"text_offset":[`...)
	dst = strconv.AppendInt(dst, int64(rp.offset(c, i)), 10)
	return append(dst, "]}"...)
}

// appendTokenLogprob appends chat's (and the Responses API's) object of
// one token: its text, log-probability and bytes, and its top
// alternatives.
func appendTokenLogprob(dst []byte, text string, i, top int) []byte {
	dst = appendAlternative(dst, text, logprob(i, 0))
	dst = dst[:len(dst)-1] // reopen it for its alternatives
	dst = append(dst, `,"top_logprobs":[`...)
	for k := range top {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = appendAlternative(dst, alternative(text, i, k), logprob(i, k))
	}
	return append(dst, "]}"...)
}

// appendAlternative appends {"token", "logprob", "bytes"}.
func appendAlternative(dst []byte, text string, lp float64) []byte {
	dst = append(dst, `{"token":`...)
	dst = strconv.AppendQuote(dst, text)
	dst = append(dst, `,"logprob":`...)
	dst = strconv.AppendFloat(dst, lp, 'f', -1, 64)
	dst = append(dst, `,"bytes":[`...)
	for b := range len(text) {
		if b > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(text[b]), 10)
	}
	return append(dst, "]}"...)
}

// offset is the length of the text of choice c before its output token
// i, which its stream writes in order: the reply keeps each choice's
// running count.
func (rp *reply) offset(c, i int) int {
	if rp.offsets == nil {
		rp.offsets = make([]int, rp.st.job.choices)
		rp.next = make([]int, rp.st.job.choices)
	}
	for ; rp.next[c] < i; rp.next[c]++ {
		rp.offsets[c] += len(rp.st.job.text(rp.next[c]))
	}
	return rp.offsets[c]
}
