package client

import "surge/openai"

// responsesBody is req as a Responses API request: the messages as its
// input, max_tokens as max_output_tokens, and store false, since surge
// never fetches a response again. The usage comes with the final event,
// unasked.
func responsesBody(req *Request, msgs []openai.Message) *openai.ResponsesRequest {
	store := false
	r := &openai.ResponsesRequest{
		Model:           req.Model,
		Input:           msgs,
		MaxOutputTokens: req.MaxTokens,
		MinTokens:       req.MinTokens,
		IgnoreEOS:       req.IgnoreEOS,
		Temperature:     req.Temperature,
		TopP:            req.TopP,
		Stream:          req.Stream,
		Store:           &store,

		SurgeReasoningTokens: req.ReasoningTokens,
	}
	if len(req.Tools) > 0 {
		r.Tools, r.ToolChoice, r.ParallelToolCalls = openai.ResponsesTools(req.Tools), req.ToolChoice, &req.ParallelToolCalls
	}
	return r
}

// messagesBody is req as a Messages API request: a leading system
// message becomes the system member, as the API wants it.
func messagesBody(req *Request, msgs []openai.Message) *openai.MessagesRequest {
	r := &openai.MessagesRequest{
		Model:       req.Model,
		MaxTokens:   req.MaxTokens,
		MinTokens:   req.MinTokens,
		IgnoreEOS:   req.IgnoreEOS,
		Temperature: req.Temperature,
		TopP:        req.TopP,
		Stream:      req.Stream,

		SurgeReasoningTokens: req.ReasoningTokens,
	}
	if len(msgs) > 0 && msgs[0].Role == "system" {
		r.System, msgs = msgs[0].Content, msgs[1:]
	}
	r.Messages = msgs
	if len(req.Tools) > 0 {
		r.Tools, r.ToolChoice = openai.MessagesTools(req.Tools), openai.MessagesChoice(req.ToolChoice, req.ParallelToolCalls)
	}
	return r
}

// embeddingsBody is req as an embeddings request: its Inputs, or its
// Prompt alone. It never streams.
func embeddingsBody(req *Request) *openai.EmbeddingsRequest {
	in := req.Inputs
	if len(in) == 0 {
		in = []string{req.Prompt}
	}
	return &openai.EmbeddingsRequest{Model: req.Model, Input: in}
}

// rerankBody is req as a rerank request: its Prompt is the query, its
// Documents the texts ranked. It never streams.
func rerankBody(req *Request) *openai.RerankRequest {
	return &openai.RerankRequest{Model: req.Model, Query: req.Prompt, Documents: req.Documents}
}

// scoreBody is req as a score request: its Prompt scored against each of
// its Documents. It never streams.
func scoreBody(req *Request) *openai.ScoreRequest {
	return &openai.ScoreRequest{Model: req.Model, Text1: req.Prompt, Text2: req.Documents}
}

// bodySize is about the encoded size of req's text when nothing needs
// escaping, for a buffer that rarely grows.
func bodySize(req *Request) int {
	n := len(req.Prompt) + len(req.Model) + 256
	for _, m := range req.Messages {
		n += len(m.Role) + len(m.Content) + len(`{"role":"","content":""},`)
		for _, im := range m.Images {
			n += len(im.Data) + len(im.MediaType) + len(`{"type":"image","source":{"type":"base64","media_type":"","data":""}},`)
		}
	}
	for _, in := range req.Inputs {
		n += len(in) + len(`"",`)
	}
	for _, d := range req.Documents {
		n += len(d) + len(`"",`)
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters) + len(`{"type":"function","function":{"name":"","description":"","parameters":}},`)
	}
	return n
}
