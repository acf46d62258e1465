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
// does not set are omitted, never sent as null). A target with no Model
// is asked GET /v1/models and its first model is used. From each answer
// Run keeps the text (choices[0].message.content), usage.completion_tokens,
// finish_reason and, when present, choices[0].logprobs.content[i].{token,
// logprob}. A failed request is data: its Answer carries the error.
//
// Prompts. Prompts(n) is a fixed, deterministic set built with the content
// package's Synth for o200k_base from seed (Seed, i): prompt i has style
// question, instruction, summarize or code (i mod 4) and an exact length
// of 32, 96, 256, 640 or 1200 tokens (i mod 5), so 20 distinct kinds and lengths repeat.
// Callers may pass their own prompts (a trace's turns) instead.
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
// A prompt where either side failed is an error and is not compared.
//
// Summary over the N prompts: exact share (exact / N); the median and mean
// of r and the token ratio Σc / Σb over compared prompts; the share of the
// N prompts whose lengths differ by more than 10%, |c − b| > 0.10·max(b, 1)
// (errors count as differing); the finish-reason agreement share; the
// mean |Δlogprob| over all common-prefix tokens; and the error count.
//
// Verdict:
//
//	same     every prompt compared and every text identical
//	minor    texts differ, but lengths agree within 10% on at least 90% of
//	         the N prompts and the mean ratio is within 1 ± 0.05
//	differs  otherwise (including when no prompt could be compared)
//
// with a sentence saying what differs and how it bears on throughput:
// a candidate that generates 1.9× the tokens needs a 1.9× token rate only
// to break even on user wait.
package parity
