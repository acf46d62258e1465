package server

import (
	"fmt"
	"math"
	"math/rand/v2"

	"surge/openai"
	"surge/sim"
)

// words are the output tokens, cycled: each is one o200k_base token, and
// a run of them tokenizes back into exactly one token per word.
var words = [...]string{
	" the", " model", " of", " and", " to", " a", " in", " is",
	" that", " for", " it", " with", " as", " on", " be", " by",
	" this", " data", " time", " system", " we", " can", " from", " more",
	" are", " one", " new", " at", " or", " not", " will", " all",
}

// word returns the text of output token i (0-based).
func word(i int) string { return words[i%len(words)] }

// job is what the engine needs for one request, with what the response
// needs to report.
type job struct {
	promptLen int
	hashes    []uint64
	outputLen int
	reasoning int  // the first output tokens that are reasoning, at most outputLen
	length    bool // the output stops at the token cap: finish_reason "length"
	// tool, when set, is the function the answer calls: its tokens are
	// the call's arguments, and it finishes with "tool_calls".
	tool string
	// copy is the fraction of the answer that repeats the prompt (the
	// Surge-Copy header), for speculative decoding's acceptance.
	copy float64
	answer
}

// prepare tokenizes r's prompt and decides its output length. Its errors
// are *apiError.
func (s *Server) prepare(r request) (job, error) {
	ids := r.ids
	if ids == nil {
		pics := r.images
		// Each image goes after the texts before it (picture.at).
		emit := func(upto int) {
			for ; len(pics) > 0 && pics[0].at <= upto; pics = pics[1:] {
				ids = imageIDs(ids, r.model, pics[0])
			}
		}
		emit(0)
		for i, t := range r.texts {
			ids = append(ids, s.tok.Encode(t)...)
			emit(i + 1)
		}
		emit(len(r.texts))
	}
	bs := s.engCfg.BlockSize
	j := job{promptLen: max(len(ids), 1)}
	if !openai.Pools(r.api) {
		// A batch of inputs or pairs is not one sequence whose prefix
		// others share.
		j.hashes = blockHashes(ids, bs)
	}
	limit := s.engCfg.MaxModelLen
	capTokens := r.maxTokens
	if capTokens == 0 {
		capTokens = limit - j.promptLen // vLLM's default max_tokens
	}
	if err := sim.CheckContext(limit, j.promptLen, max(capTokens, 1)); err != nil {
		return job{}, badRequest(err.Error())
	}
	rng := rand.New(rand.NewPCG(promptSeed(ids), uint64(len(ids))))
	j.outputLen = outputLen(r, capTokens, s.cfg.OutputMedian, s.cfg.OutputSigma, rng)
	j.length = j.outputLen == capTokens
	j.reasoning = min(r.reasoning, j.outputLen)
	if r.tool != "" && j.outputLen > j.reasoning && rng.Float64() < s.cfg.ToolCallShare {
		j.tool = r.tool
	}
	j.answer = newAnswer(r)
	j.cutAtStop(r.stop)
	// The last token is sampled, not stored: the KV cache holds
	// prompt+output−1 tokens.
	need := (j.promptLen + j.outputLen - 1 + bs - 1) / bs
	if need > s.engCfg.NumBlocks {
		return job{}, badRequest(fmt.Sprintf("%v: %d blocks needed, %d in the cache",
			sim.ErrKVCapacity, need, s.engCfg.NumBlocks))
	}
	return j, nil
}

// outputLen returns capTokens when the request ignores EOS or asks for at
// least capTokens, and otherwise a natural length
// L = round(median · exp(σ·Z)), Z ~ N(0,1), clamped to
// [max(min_tokens, 1), capTokens].
func outputLen(r request, capTokens, median int, sigma float64, rng *rand.Rand) int {
	if r.ignoreEOS || r.minTokens >= capTokens {
		return capTokens
	}
	// A reasoning model thinks first, then answers at its natural length.
	natural := r.reasoning + int(math.Round(float64(median)*math.Exp(sigma*rng.NormFloat64())))
	return min(max(natural, r.minTokens, 1), capTokens)
}

// FNV-1a 64-bit constants.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// mix folds token id into the FNV-1a hash h, four bytes little-endian.
func mix(h uint64, id int) uint64 {
	v := uint32(id)
	for range 4 {
		h = (h ^ uint64(v&0xff)) * fnvPrime
		v >>= 8
	}
	return h
}

// blockHashes returns the chained hash of each full block of bs tokens:
// h_0 = FNV-1a(offset, block 0), h_i = FNV-1a(h_{i−1}, block i), so equal
// hashes mean equal prefixes (up to collisions).
func blockHashes(ids []int, bs int) []uint64 {
	n := len(ids) / bs
	if n == 0 {
		return nil
	}
	out := make([]uint64, n)
	h := uint64(fnvOffset)
	for b := range n {
		for _, id := range ids[b*bs : (b+1)*bs] {
			h = mix(h, id)
		}
		out[b] = h
	}
	return out
}

// promptSeed hashes every prompt token, seeding the natural output length.
func promptSeed(ids []int) uint64 {
	h := uint64(fnvOffset)
	for _, id := range ids {
		h = mix(h, id)
	}
	return h
}
