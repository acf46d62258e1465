package server

import (
	"cmp"
	"hash/fnv"
	"slices"

	"surge/openai"
)

// relevance is the score of a query and document pair, in [0, 1): a hash
// of their texts, so the same pair always scores the same, whichever
// request and server asks.
func relevance(p pair) float64 {
	h := fnv.New64a()
	h.Write([]byte(p.query))
	h.Write([]byte{0})
	h.Write([]byte(p.doc))
	return float64(h.Sum64()>>11) / (1 << 53)
}

// rerank is the answer to a finished rerank request: its documents best
// first, the top_n of them when it asked, with their texts when it asked,
// and the tokens of all the pairs.
func (rp *reply) rerank(p progress) openai.RerankResponse {
	results := make([]openai.RerankResult, len(rp.req.pairs))
	for i, pr := range rp.req.pairs {
		results[i] = openai.RerankResult{Index: i, RelevanceScore: relevance(pr)}
		if rp.req.returnDocs {
			results[i].Document = &openai.RerankDocument{Text: pr.doc}
		}
	}
	slices.SortStableFunc(results, func(a, b openai.RerankResult) int { return cmp.Compare(b.RelevanceScore, a.RelevanceScore) })
	if n := rp.req.topN; n > 0 && n < len(results) {
		results = results[:n]
	}
	u, t := rp.usageOf(p)
	return openai.RerankResponse{ID: rp.id, Model: rp.s.cfg.Model, Results: results,
		Usage: openai.Usage{PromptTokens: u.PromptTokens, TotalTokens: u.PromptTokens}, SurgeTimings: &t}
}

// score is the answer to a finished score request: one score per pair,
// in order, and the tokens of all the pairs.
func (rp *reply) score(p progress) openai.ScoreResponse {
	data := make([]openai.ScoreData, len(rp.req.pairs))
	for i, pr := range rp.req.pairs {
		data[i] = openai.ScoreData{Index: i, Object: "score", Score: relevance(pr)}
	}
	u, t := rp.usageOf(p)
	return openai.ScoreResponse{ID: rp.id, Object: "list", Created: rp.s.created, Model: rp.s.cfg.Model, Data: data,
		Usage: openai.Usage{PromptTokens: u.PromptTokens, TotalTokens: u.PromptTokens}, SurgeTimings: &t}
}
