package client

import (
	"fmt"
	"strings"
)

// checkUsage drops the server's token counts that cannot be true, so that
// no figure is computed from them, and says what it dropped and why in
// res.UsageDropped: a negative prompt_tokens, completion_tokens or
// cached_tokens; cached_tokens above prompt_tokens; or more completion
// tokens than the received bytes could hold (every token sent is at
// least a byte of text), leaving out the hidden reasoning tokens the
// server says it did not send (usage.completion_tokens_details).
func (res *Result) checkUsage(received int64, hidden int) {
	var why []string
	drop := func(v *int, msg string) {
		why = append(why, msg)
		*v = 0
	}
	for _, c := range []struct {
		name string
		v    *int
	}{{"prompt_tokens", &res.PromptTokens}, {"completion_tokens", &res.CompletionTokens}, {"cached_tokens", &res.CachedTokens}} {
		if *c.v < 0 {
			drop(c.v, fmt.Sprintf("%s %d is negative", c.name, *c.v))
		}
	}
	if res.PromptTokens > 0 && res.CachedTokens > res.PromptTokens {
		drop(&res.CachedTokens, fmt.Sprintf("cached_tokens %d is more than prompt_tokens %d", res.CachedTokens, res.PromptTokens))
	}
	if sent := int64(res.CompletionTokens) - int64(max(hidden, 0)); sent > received {
		drop(&res.CompletionTokens, fmt.Sprintf("completion_tokens %d is more than the %d bytes received could hold", res.CompletionTokens, received))
	}
	res.UsageDropped = strings.Join(why, "; ")
}
