package openai

import (
	"encoding/json"
	"strconv"
)

// RerankRequest is the body of a request to /v1/rerank as a client sends
// it, in the shape of Cohere's and Jina's API that vLLM accepts: the
// documents to rank by their relevance to the query. TopN, when
// positive, asks for the best TopN only; ReturnDocuments asks for each
// result's text.
type RerankRequest struct {
	Model           string   `json:"model,omitempty"`
	Query           string   `json:"query"`
	Documents       []string `json:"documents"`
	TopN            int      `json:"top_n,omitempty"`
	ReturnDocuments bool     `json:"return_documents,omitempty"`
}

// AppendJSON appends r encoded as JSON to dst, byte for byte what
// encoding/json writes for r with HTML escaping off (nil Documents is
// null), in one pass, as Request.AppendJSON does.
func (r *RerankRequest) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	open := len(dst)
	if r.Model != "" {
		dst = appendString(appendKey(dst, open, "model"), r.Model)
	}
	dst = appendString(appendKey(dst, open, "query"), r.Query)
	dst = appendStrings(appendKey(dst, open, "documents"), r.Documents)
	if r.TopN != 0 {
		dst = strconv.AppendInt(appendKey(dst, open, "top_n"), int64(r.TopN), 10)
	}
	if r.ReturnDocuments {
		dst = append(appendKey(dst, open, "return_documents"), "true"...)
	}
	return append(dst, '}')
}

// ScoreRequest is the body of a request to vLLM's /v1/score (also
// /score) as a client sends it: Text1 scored against each of Text2.
type ScoreRequest struct {
	Model string   `json:"model,omitempty"`
	Text1 string   `json:"text_1"`
	Text2 []string `json:"text_2"`
}

// AppendJSON appends r encoded as JSON to dst, byte for byte what
// encoding/json writes for r with HTML escaping off (nil Text2 is null).
func (r *ScoreRequest) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	open := len(dst)
	if r.Model != "" {
		dst = appendString(appendKey(dst, open, "model"), r.Model)
	}
	dst = appendString(appendKey(dst, open, "text_1"), r.Text1)
	dst = appendStrings(appendKey(dst, open, "text_2"), r.Text2)
	return append(dst, '}')
}

// appendStrings appends ss as a JSON array of strings, null when nil.
func appendStrings(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}

// RerankServerRequest is the body of a rerank request as a server reads
// it: each document is a string or an object with a text member, kept
// raw; TopN is absent (all documents), or how many of the best to return.
type RerankServerRequest struct {
	Model           string            `json:"model"`
	Query           *string           `json:"query"`
	Documents       []json.RawMessage `json:"documents"`
	TopN            *int              `json:"top_n"`
	ReturnDocuments bool              `json:"return_documents"`
}

// ScoreServerRequest is the body of a score request as a server reads
// it: text_1 and text_2 are each a string or an array of strings, kept
// raw.
type ScoreServerRequest struct {
	Model string          `json:"model"`
	Text1 json.RawMessage `json:"text_1"`
	Text2 json.RawMessage `json:"text_2"`
}

// RerankResponse is the answer to a rerank request: the results, best
// first, and the tokens of every query and document pair in
// Usage.TotalTokens (vLLM also gives them as PromptTokens).
type RerankResponse struct {
	ID      string         `json:"id"`
	Model   string         `json:"model"`
	Usage   Usage          `json:"usage"`
	Results []RerankResult `json:"results"`
	// SurgeTimings is surge's own engine server's measurement.
	SurgeTimings *SurgeTimings `json:"surge_timings,omitempty"`
}

// RerankResult is document Index's relevance to the query, with the
// document itself when the request asked for it.
type RerankResult struct {
	Index          int             `json:"index"`
	Document       *RerankDocument `json:"document,omitempty"`
	RelevanceScore float64         `json:"relevance_score"`
}

// RerankDocument is a document as a rerank result returns it.
type RerankDocument struct {
	Text string `json:"text"`
}

// ScoreResponse is the answer to a score request: one score per pair, in
// the order of text_2, and the pairs' tokens as a usage.
type ScoreResponse struct {
	ID      string      `json:"id"`
	Object  string      `json:"object"`
	Created int64       `json:"created"`
	Model   string      `json:"model"`
	Data    []ScoreData `json:"data"`
	Usage   Usage       `json:"usage"`
	// SurgeTimings is surge's own engine server's measurement.
	SurgeTimings *SurgeTimings `json:"surge_timings,omitempty"`
}

// ScoreData is the score of pair Index (object "score").
type ScoreData struct {
	Index  int     `json:"index"`
	Object string  `json:"object"`
	Score  float64 `json:"score"`
}
