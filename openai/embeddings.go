package openai

import "encoding/json"

// EmbeddingsRequest is the body of a request to /v1/embeddings as a
// client sends it: a batch of inputs, each embedded on its own.
type EmbeddingsRequest struct {
	Model string   `json:"model,omitempty"`
	Input []string `json:"input"`
}

// AppendJSON appends r encoded as JSON to dst, byte for byte what
// encoding/json writes for r with HTML escaping off (a nil Input is
// null), in one pass, as Request.AppendJSON does.
func (r *EmbeddingsRequest) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	open := len(dst)
	if r.Model != "" {
		dst = appendString(appendKey(dst, open, "model"), r.Model)
	}
	dst = appendKey(dst, open, "input")
	if r.Input == nil {
		return append(dst, "null}"...)
	}
	dst = append(dst, '[')
	for i, in := range r.Input {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, in)
	}
	return append(dst, "]}"...)
}

// EmbeddingsServerRequest is the body of an embeddings request as a
// server reads it: Input is a string, an array of strings, an array of
// token IDs or an array of arrays of them, kept raw; EncodingFormat is
// "float" (the default) or "base64".
type EmbeddingsServerRequest struct {
	Model          string          `json:"model"`
	Input          json.RawMessage `json:"input"`
	EncodingFormat string          `json:"encoding_format"`
}

// EmbeddingsResponse is the answer to an embeddings request: one
// Embedding per input, in Data, and the prompt tokens of them all.
type EmbeddingsResponse struct {
	Object string      `json:"object"`
	Data   []Embedding `json:"data"`
	Model  string      `json:"model"`
	Usage  Usage       `json:"usage"`
	// SurgeTimings is surge's own engine server's measurement.
	SurgeTimings *SurgeTimings `json:"surge_timings,omitempty"`
}

// Embedding is the vector of input Index: an array of numbers, or with
// encoding_format "base64" a string of little-endian float32s, kept
// encoded.
type Embedding struct {
	Object    string          `json:"object"`
	Index     int             `json:"index"`
	Embedding json.RawMessage `json:"embedding"`
}
