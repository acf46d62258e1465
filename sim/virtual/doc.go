// Package virtual runs a workload through replicas of the sim engine in
// virtual time: no sleeping, no network, no goroutines. It produces the same
// records `surge run` writes for a real server, thousands of times faster
// than real time, for capacity planning.
//
// # Event loop
//
// Run is a discrete-event simulation. Its events are arrivals (open-loop
// sessions starting at their offsets, closed-loop sessions starting when
// their client has a free slot, turns falling due) and, for each replica,
// the end of the step it is running. At every iteration the earliest event
// is taken; at equal times a step's results are delivered first, then
// arrivals are taken, then idle replicas with work start a step. A replica
// steps its engine at time t and holds the step's events until
// t+Duration, when they are delivered: records are written and the turns
// waiting for the finished ones fall due. Requests that arrive during a
// step join the next one, as in vLLM.
//
// # Sessions
//
// A session's turns form a graph, as the driver runs them (see
// docs/trace.md, "Conversations"). A turn with no Parent and no After is
// due at the session's start plus its WaitUS; any other turn once its
// parent and every turn in After have finished, plus its WaitUS:
//
//	due_k = max(end_d for d in deps(k)) + WaitUS_k   (or start + WaitUS_k)
//
// where end_d is the instant turn d's last token is delivered. A turn
// whose dependency failed (refused with a 400) is not sent and gets no
// record, and neither is any turn depending on it. A closed-loop client's
// slot is held until every turn of its session has finished or been
// skipped, think times included.
//
// # Records
//
// A request is measured as the driver measures a streaming request to a
// server with no network between them, one token per SSE chunk:
//
//	IntendedUS = SentUS = due
//	TTFTUS = FirstByteUS = t(first token) − due
//	TTFOUS = t(token ReasoningTokens+1) − due   (the first answer token)
//	ITLUS[i] = round(t(token i+1) − due) − round(t(token i) − due)
//	E2EUS = t(last token) − due
//	Chunks = ServerOutputTokens = output tokens
//	ClientInputTokens = ServerInputTokens = prompt tokens as the engine saw them
//	CachedTokens = prompt tokens found in the prefix cache at admission
//
// all rounded to whole microseconds. An embeddings request (a session of
// api embeddings) is one step of prefill for all its texts' tokens and
// an output step for the pooling, answered whole: FirstByteUS = E2EUS at
// the end of that step, Inputs its texts, NotStreamed, no token times or
// output tokens, and no prefix caching, as the built-in server answers
// it; a rerank or score request likewise, for its query and document
// pairs' tokens (the trace's InputTokens), with Documents its documents.
// InputTokens is the trace's count,
// corrected under live history, as the driver corrects it, for earlier
// replies the engine made of other lengths than planned. The
// first ReasoningTokens tokens of the output are reasoning, as the
// built-in server streams them. A
// prompt longer than the context gets a record with error class "http",
// status 400 and vLLM's message, as a vLLM server would answer. When ctx
// is cancelled, each request still in flight gets a record of error class
// "cancelled" holding the tokens it had received (E2EUS ends at the last
// of them, or at the interrupt when there was none), as the driver records
// streams cut off by Ctrl-C.
//
// # Prompts
//
// A turn's prompt is a list of messages along its chain of parents:
//
//	[tools] [system] [user 0] [reply 0] [user 1] [reply 1] … [user k]
//
// with token counts from the trace, so no text is ever tokenized:
//
//	tools = the session's tool set's Tokens (its definitions), if any
//	system = SystemTokens of the conversation's first turn
//	user j = InputTokens_j − SystemTokens                       (first turn)
//	user j = InputTokens_j − (InputTokens_p + answer_p)         (parent p)
//	reply p = answer_p = OutputTokens_p − ReasoningTokens_p   (pinned)
//	reply p = the tokens the engine generated for p, less     (live)
//	          the reasoning, which clients do not carry forward
//
// With pinned history the prompt is exactly the turn's InputTokens, plus
// the tools' tokens, which no InputTokens holds; with
// live history it differs where the engine's reply did (max_tokens or the
// context cut it short). The chat template's tokens are not modelled.
//
// # Output length
//
// Every request generates its turn's OutputTokens (at least 1). With
// ignore_eos or min_tokens the server is asked for exactly that many; without
// them the trace's sampled length stands for the natural length at which the
// model would stop, so it is used as well. MaxTokens caps it, and so does
// the context (MaxModelLen − prompt), with finish reason "length".
//
// # Prefix caching
//
// The engine caches full KV blocks of BlockSize tokens by chained hash, so
// the hashes must be equal exactly where two prompts' token sequences are.
// Each message's content has a name, and token i of a message is named by
// (content, i):
//
//	system prompt with a SystemID   (client, SystemID): shared by the
//	                                client's sessions that draw it
//	user message                    its text when the trace has it,
//	                                else (session, turn)
//	reply of turn p                 (session, p): the trace's reply when
//	                                pinned, or the engine's, which is
//	                                deterministic per request
//	system prompt with no SystemID  its text, else (session, turn)
//	imported content block          its id (trace.Turn.Blocks), and the
//	                                rest of the prompt TailBlock's id,
//	                                else (session, turn)
//
// Block b's hash mixes block b−1's hash with the block's segments, each the
// run of its tokens within one message named by (content, first offset,
// end offset); a block straddling two messages so depends on both. A
// message named by its text maps token offset o to byte o·B/BlockSize,
// where B is the bytes of text per block over the workload,
//
//	B = round(BlockSize · Σ len(text) / Σ tokens)   (messages with text),
//
// and its tokens past the end of its text are its own. A single-message
// prompt therefore shares the blocks of its text's common prefix with
// others, as before conversations existed, and a trace written with
// --no-text caches alike (its generated user messages share nothing
// either way). A turn's hashes continue its parent's, whose prompt begins
// its own: the parent's ⌊P/BlockSize⌋ hashes are copied and only the rest
// is hashed, so a conversation costs hashing linear in its length. So do
// an imported turn's hashes continue its first dependency's when both are
// described by content blocks and share the leading L of them: after a
// system prompt of S tokens (the same pool entry, or none) the first
// ⌊(S + L·BlockTokens)/BlockSize⌋ hashes are copied, whether or not the
// content blocks align with KV blocks.
//
// Every run starts with a cold cache on every replica, so, unlike a real
// server that may hold an earlier run's blocks, nothing needs salting: the
// trace's salt policy does not apply.
package virtual
