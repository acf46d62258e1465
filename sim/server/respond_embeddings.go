package server

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"strconv"

	"surge/openai"
)

// EmbeddingDims is the length of the vectors the server returns, that of
// small sentence-embedding models (all-MiniLM-L6-v2), so a response is
// about the size a real one is.
const EmbeddingDims = 384

// embeddings is the answer to a finished embeddings request: one vector
// per input, its prompt tokens (all inputs') and timings.
func (rp *reply) embeddings(p progress) openai.EmbeddingsResponse {
	vec := rp.s.vectors.floats
	if rp.req.base64 {
		vec = rp.s.vectors.base64
	}
	data := make([]openai.Embedding, rp.req.inputs)
	for i := range data {
		data[i] = openai.Embedding{Object: "embedding", Index: i, Embedding: vec}
	}
	u, t := rp.usageOf(p)
	return openai.EmbeddingsResponse{Object: "list", Data: data, Model: rp.s.cfg.Model,
		Usage: openai.Usage{PromptTokens: u.PromptTokens, TotalTokens: u.PromptTokens}, SurgeTimings: &t}
}

// vectors is the one vector the server returns for every input, encoded
// once as JSON numbers and as base64.
type vectors struct {
	floats, base64 []byte
}

// newVectors encodes a fixed unit vector of EmbeddingDims float32s.
func newVectors() vectors {
	raw := make([]byte, 0, 4*EmbeddingDims)
	floats := []byte{'['}
	norm := float32(1 / math.Sqrt(EmbeddingDims))
	for i := range EmbeddingDims {
		v := norm
		if i%2 == 1 {
			v = -norm
		}
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
		if i > 0 {
			floats = append(floats, ',')
		}
		floats = strconv.AppendFloat(floats, float64(v), 'g', -1, 32)
	}
	floats = append(floats, ']')
	return vectors{floats: floats, base64: strconv.AppendQuote(nil, base64.StdEncoding.EncodeToString(raw))}
}
