// Package parity checks that two or more inference servers behave alike
// before their speed is compared. A configuration that produces tokens
// twice as fast but generates twice as many tokens does not halve anyone's
// wait, so an engine, quantisation or precision change that alters what
// the model says must be flagged first.
//
// Probe. Run sends every prompt to every target as a non-streaming POST
// /v1/chat/completions with one user message, temperature 0, seed 0,
// max_tokens (Config.MaxTokens, 128 by default) and "logprobs": true. A
// target that answers the first prompt with HTTP 400 whose body mentions
// logprobs is asked again without the field, for every prompt, and its
// result notes it (llama-server rejects some logprobs forms; fields surge
// does not set are omitted, never sent as null). Every target is first
// asked GET /v1/models: a target with no Model uses its first model, and
// the context of one request is read from the listing (vLLM's
// max_model_len; llama-server's meta.n_ctx, the context of one slot, or
// else default_generation_settings.n_ctx of GET /props, or else
// meta.n_ctx_train). From each answer
// Run keeps the text (choices[0].message.content), usage.completion_tokens,
// finish_reason and, when present, choices[0].logprobs.content[i].{token,
// logprob}. A failed request is data: its Answer carries the error, and
// a 400 or 413 whose body speaks of the context ("context size", "context
// length", …) is reported as "too long for the server's context".
//
// Prompts. Prompts(n, L) is a fixed, deterministic set built with the
// content package's Synth for o200k_base from seed (Seed, i): prompt i has
// style question, instruction, summarize or code (i mod 4) and an exact
// length of 32, 96, 192, 384 or 640 tokens (i mod 5) scaled by L/640, so
// 20 distinct kinds and lengths repeat. L is Config.PromptTokens (640 by
// default), lowered to FitPromptTokens(C, max_tokens) = (C − max_tokens)·3/4
// for the smallest context C a target reports: the quarter left over
// covers the chat template and a tokenizer that counts more tokens than
// o200k_base. With the defaults the prompts fit a 1,024-token context
// (llama-server's slot with -np 8). Callers may pass their own prompts
// (a trace's turns) instead.
//
// Comparison. The first target is the base; every other target is a
// candidate compared prompt by prompt (Compare):
//
//	exact         the two texts are byte-identical
//	prefix        common prefix in characters (runes) and, when both
//	              answers carry logprobs, in tokens (equal token strings)
//	tokens        output tokens: usage.completion_tokens, else the number
//	              of logprob entries, else 0
//	ratio         r = c / max(b, 1) of candidate c over base b tokens;
//	              r = 1 when both are 0
//	finish        the finish reasons are equal
//	|Δlogprob|    (1/k) Σ_{i<k} |lp_c(i) − lp_b(i)| over the k tokens of
//	              the common token prefix (only when k > 0)
//
// A prompt where either side failed is an error and is not compared. A
// prompt both sides failed is "both failed" (with the errors): the servers
// agree in failing it, so it is reported but judged neither alike nor
// different. A prompt only one side failed is a difference.
//
// Summary over the M judged prompts (the N prompts less those both sides
// failed): exact share (exact / M); the median and mean of r and the token
// ratio Σc / Σb over compared prompts; the share of the M prompts whose
// lengths differ by more than 10%, |c − b| > 0.10·max(b, 1) (one-sided
// failures count as differing); the finish-reason agreement share; the
// mean |Δlogprob| over all common-prefix tokens; the counts of one-sided
// and both-sided failures and of refusals for length.
//
// Verdict:
//
//	same         every judged prompt compared and every text identical
//	minor        at least half the M texts identical (2·exact ≥ M), lengths
//	             agree within 10% on at least 90% of the M prompts, and the
//	             mean ratio is within 1 ± 0.05
//	differs      otherwise, including when fewer than half the texts are
//	             identical whatever the lengths (another model) and when no
//	             prompt could be compared
//	both failed  every prompt failed on both sides (M = 0)
//
// The exact-match threshold is a half because at temperature 0 the same
// model on another engine configuration diverges on a few prompts at
// most (numerics, batch shape), while another model or a change to what
// it says matches almost none.
//
// with a sentence saying what differs and how it bears on throughput:
// a candidate that generates 1.9× the tokens needs a 1.9× token rate only
// to break even on user wait.
package parity
