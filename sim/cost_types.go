package sim

// Batch is the work of one engine step, as the cost model sees it.
type Batch struct {
	// Prefill holds one chunk per sequence that computes prompt tokens this step.
	Prefill []Chunk
	// Decode holds the context length of each sequence decoding one token this step.
	Decode []int
	// Verify holds one chunk per sequence verifying speculative drafts:
	// its newest token and its drafts, each of which produces logits.
	Verify []Chunk
}

// Chunk is one sequence's prefill work in a step: Tokens new prompt tokens
// computed on top of Context tokens already in the sequence's KV cache.
type Chunk struct {
	Tokens  int
	Context int
}
