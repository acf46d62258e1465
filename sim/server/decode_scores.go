package server

import (
	"bytes"
	"encoding/json"
	"fmt"

	"surge/openai"
)

// pair is one query and document a rerank or score request scores: the
// engine prefills each as a sequence of its own, query then document.
type pair struct{ query, doc string }

// decodeRerank parses and validates a rerank request: a query and the
// documents to rank by it (strings, or objects with a text member), and
// top_n, how many of the best to return (absent or 0: all). The engine
// costs it as the prefill of every query and document pair.
func decodeRerank(body []byte) (request, error) {
	var w openai.RerankServerRequest
	if err := decodeJSON(body, &w); err != nil {
		return request{}, err
	}
	switch {
	case w.Model == "":
		return request{}, badRequest("model is required")
	case w.Query == nil:
		return request{}, badRequest("query is required")
	case len(w.Documents) == 0:
		return request{}, badRequest("documents must not be empty")
	case w.TopN != nil && *w.TopN < 0:
		return request{}, badRequest(fmt.Sprintf("top_n must be 0 (all) or more, got %d", *w.TopN))
	}
	r := request{api: openai.APIRerank, model: w.Model, maxTokens: 1, returnDocs: w.ReturnDocuments}
	if w.TopN != nil {
		r.topN = *w.TopN
	}
	for i, raw := range w.Documents {
		doc, err := document(raw)
		if err != nil {
			return request{}, badRequest(fmt.Sprintf("documents[%d] %v", i, err))
		}
		r.pairs = append(r.pairs, pair{*w.Query, doc})
	}
	r.texts = pairTexts(r.pairs)
	return r, nil
}

// document reads one rerank document: a string or an object whose text
// member is one.
func document(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var o struct {
		Text *string `json:"text"`
	}
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) && json.Unmarshal(raw, &o) == nil && o.Text != nil {
		return *o.Text, nil
	}
	return "", fmt.Errorf("must be a string or an object with a text string")
}

// decodeScore parses and validates a request of vLLM's score API: text_1
// and text_2 are each a string or an array of strings; one text_1 is
// scored against every text_2, else they pair up one to one, as vLLM
// pairs them.
func decodeScore(body []byte) (request, error) {
	var w openai.ScoreServerRequest
	if err := decodeJSON(body, &w); err != nil {
		return request{}, err
	}
	if w.Model == "" {
		return request{}, badRequest("model is required")
	}
	t1, err := texts("text_1", w.Text1)
	if err != nil {
		return request{}, err
	}
	t2, err := texts("text_2", w.Text2)
	if err != nil {
		return request{}, err
	}
	if len(t1) != 1 && len(t1) != len(t2) {
		return request{}, badRequest(fmt.Sprintf("text_1 holds %d texts and text_2 %d: give one text_1, or as many as text_2", len(t1), len(t2)))
	}
	r := request{api: openai.APIScore, model: w.Model, maxTokens: 1}
	for i, d := range t2 {
		r.pairs = append(r.pairs, pair{t1[min(i, len(t1)-1)], d})
	}
	r.texts = pairTexts(r.pairs)
	return r, nil
}

// texts reads a member that is a string or a non-empty array of strings.
func texts(name string, raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, badRequest(name + " is required")
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return nil, badRequest(name + " must be a string or an array of strings")
	}
	if len(many) == 0 {
		return nil, badRequest(name + " must not be empty")
	}
	return many, nil
}

// pairTexts is the prompt text of pairs: each query then its document.
func pairTexts(pairs []pair) []string {
	out := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		out = append(out, p.query, p.doc)
	}
	return out
}
