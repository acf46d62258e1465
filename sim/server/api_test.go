package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"surge/client"
	"surge/openai"
)

// TestAPIsThroughClient sends each API's requests, streamed and whole,
// with and without reasoning, to the server through surge's client, which
// reads them with openai.DecodeAPI: every token is one event, the
// reasoning comes first, the usage and the server's timings are there,
// and the answer's text is the words that tokenize to its count.
func TestAPIsThroughClient(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Config{})
	c, err := client.New(client.Config{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for _, api := range []string{openai.APIChat, openai.APIResponses, openai.APIMessages} {
		for _, stream := range []bool{true, false} {
			for _, reasoning := range []int{0, 3} {
				req := &client.Request{API: api, Model: testModel, Prompt: "why is the sky blue", MaxTokens: 7, MinTokens: 7, IgnoreEOS: true,
					ReasoningTokens: reasoning, Stream: stream, KeepText: true}
				res := c.Do(context.Background(), req)
				name := api
				if stream {
					name += " streamed"
				}
				if res.ErrClass != "" {
					t.Fatalf("%s: %s %s", name, res.ErrClass, res.Err)
				}
				if res.CompletionTokens != 7 || res.PromptTokens == 0 || res.FinishReason != "length" || res.ServerE2E == 0 || res.Whole == stream {
					t.Errorf("%s, reasoning %d: usage %d/%d, finish %q, server e2e %v, whole %v", name, reasoning, res.PromptTokens, res.CompletionTokens, res.FinishReason, res.ServerE2E, res.Whole)
				}
				if stream && (res.Chunks != 7 || len(res.TokenTimes) != 7) {
					t.Errorf("%s: %d token events, want 7", name, res.Chunks)
				}
				if n := len(s.tok.Encode(res.Text)); n != 7-reasoning || (res.Reasoning != "") != (reasoning > 0) {
					t.Errorf("%s, reasoning %d: answer %q (%d tokens), reasoning %q", name, reasoning, res.Text, n, res.Reasoning)
				}
				if stream && reasoning > 0 && !res.FirstToken.Before(res.FirstAnswer) && !res.FirstToken.Equal(res.FirstAnswer) {
					t.Errorf("%s: first answer before the first token", name)
				}
			}
		}
	}
}

// TestAPIsPrefixCache checks that the cached tokens of a repeated prompt
// reach the client through the Responses and Messages usages.
func TestAPIsPrefixCache(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Config{})
	c, err := client.New(client.Config{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	prompt := strings.Repeat("a long shared prompt of many words ", 20)
	for _, api := range []string{openai.APIResponses, openai.APIMessages} {
		for _, stream := range []bool{true, false} {
			var res *client.Result
			for range 2 {
				res = c.Do(context.Background(), &client.Request{API: api, Model: testModel, Prompt: prompt, MaxTokens: 2, Stream: stream})
			}
			if res.ErrClass != "" || res.CachedTokens < 16 || res.CachedTokens >= res.PromptTokens {
				t.Errorf("%s (stream %v): second request cached %d of %d tokens (%s)", api, stream, res.CachedTokens, res.PromptTokens, res.Err)
			}
		}
	}
}

// TestEmbeddings checks an embeddings batch: one vector per input, as
// numbers or base64, the prompt tokens of all the inputs, no tokens to
// time.
func TestEmbeddings(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Config{})
	c, err := client.New(client.Config{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	inputs := []string{"the first input", "a second one", "and a third"}
	want := 0
	for _, in := range inputs {
		want += len(s.tok.Encode(in))
	}
	res := c.Do(context.Background(), &client.Request{API: openai.APIEmbeddings, Model: testModel, Inputs: inputs, Stream: true})
	if res.ErrClass != "" || res.Embeddings != 3 || res.PromptTokens != want || res.Chunks != 0 || !res.FirstToken.IsZero() || !res.Whole || res.ServerE2E == 0 {
		t.Errorf("result %+v; want 3 vectors of %d prompt tokens, no token events", res, want)
	}
	code, body := post(t, ts, openai.EmbeddingsPath, map[string]any{"model": testModel, "input": "x", "encoding_format": "base64"})
	in, err := openai.DecodeAPI(openai.APIEmbeddings, body)
	if code != 200 || err != nil || in.Embeddings != 1 || !strings.Contains(string(body), `"embedding":"`) {
		t.Errorf("base64: status %d, %+v, %v: %.200s", code, in, err, body)
	}
}

// TestRerankAndScore checks rerank and score through surge's client: one
// score per document, the prompt tokens of every query and document pair,
// no tokens to time, the same score for the same pair by either API, and
// rerank's top_n and return_documents.
func TestRerankAndScore(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Config{})
	c, err := client.New(client.Config{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	query, docs := "which is the capital of France", []string{"Brasilia is in Brazil.", "Paris is in France.", "Cats sleep a lot."}
	want := 0
	for _, d := range docs {
		want += len(s.tok.Encode(query)) + len(s.tok.Encode(d))
	}
	for _, api := range []string{openai.APIRerank, openai.APIScore} {
		res := c.Do(context.Background(), &client.Request{API: api, Model: testModel, Prompt: query, Documents: docs, Stream: true})
		if res.ErrClass != "" || res.Scores != 3 || res.PromptTokens != want || res.Chunks != 0 || !res.FirstToken.IsZero() || !res.Whole || res.ServerE2E == 0 {
			t.Errorf("%s: result %+v; want 3 scores of %d prompt tokens, no token events", api, res, want)
		}
	}
	var rr openai.RerankResponse
	code, body := post(t, ts, "/v2/rerank", map[string]any{"model": testModel, "query": query, "documents": docs, "top_n": 2, "return_documents": true})
	if err := json.Unmarshal(body, &rr); code != 200 || err != nil || len(rr.Results) != 2 || !strings.HasPrefix(rr.ID, "rerank-") {
		t.Fatalf("top_n 2: status %d, %v: %s", code, err, body)
	}
	var sr openai.ScoreResponse
	code, body = post(t, ts, "/score", map[string]any{"model": testModel, "text_1": query, "text_2": docs})
	if err := json.Unmarshal(body, &sr); code != 200 || err != nil || len(sr.Data) != 3 || sr.Object != "list" {
		t.Fatalf("score: status %d, %v: %s", code, err, body)
	}
	for k, r := range rr.Results {
		if r.Document == nil || r.Document.Text != docs[r.Index] || r.RelevanceScore != sr.Data[r.Index].Score || r.RelevanceScore < 0 || r.RelevanceScore >= 1 {
			t.Errorf("result %d: %+v; want document %d's text and score %v", k, r, r.Index, sr.Data[r.Index].Score)
		}
		if k > 0 && r.RelevanceScore > rr.Results[k-1].RelevanceScore {
			t.Errorf("results not best first: %+v", rr.Results)
		}
	}
}
