package openai

// SurgeCopyHeader is the request header in which surge tells its
// built-in engine the planned fraction of the answer that copies the
// prompt (trace.Turn.Copy), a decimal in [0, 1]; the engine's speculative
// decoding accepts drafts by it. Like surge_reasoning_tokens, only that
// engine knows it.
const SurgeCopyHeader = "Surge-Copy"
