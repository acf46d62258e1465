// Package openai holds the wire format of OpenAI-compatible inference
// servers, shared by surge's client and its simulated server: request bodies
// for /v1/chat/completions and /v1/completions, OpenAI's Responses API
// (/v1/responses), Anthropic's Messages API (/v1/messages),
// /v1/embeddings, /v1/rerank (Cohere's and Jina's shape, as vLLM serves
// it) and vLLM's /v1/score, response and chunk types, an incremental Server-Sent
// Events parser, and a chunk decoder that extracts only what timing needs
// ([DecodeAPI] reads every API's events and bodies in chat's terms).
//
// The hot paths avoid work a load generator cannot afford:
//
//   - [Request.AppendJSON] writes a body in one pass into a caller's buffer,
//     so a 100k-token prompt costs one escaping copy, not a reflection walk.
//   - [Parser] splits a byte stream into events as reads arrive, so the
//     caller can stamp each event with the time of the read that completed
//     it, before any JSON is decoded.
//   - [Decode] scans a chunk's JSON once without allocating, reporting
//     whether it carries reasoning or answer tokens, its finish reason,
//     usage and any error; it never builds the generated text.
//   - [DecodeText] is the same scan for callers that keep the reply: it
//     also appends choice 0's answer and reasoning text, unescaped, to the
//     caller's reusable buffers.
//
// The package imports nothing from surge.
package openai
