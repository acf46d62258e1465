package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"surge/internal/recvtime"
	"surge/openai"
	"surge/sim"
)

const testModel = "test-model"

// prefillCost charges a fixed time per step plus a time per prefill token,
// and counts the prefill tokens it was asked about.
type prefillCost struct {
	step, perToken time.Duration
	prefill        atomic.Int64
}

func (c *prefillCost) StepTime(b sim.Batch) time.Duration {
	n := 0
	for _, ch := range b.Prefill {
		n += ch.Tokens
	}
	c.prefill.Add(int64(n))
	return c.step + time.Duration(n)*c.perToken
}

// newTestServer starts a server with a 1 ms-per-step coster (cfg fields
// left zero take test defaults) behind httptest, its connections as
// Serve's; both stop with the test.
func newTestServer(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	if cfg.Coster == nil {
		cfg.Coster = &prefillCost{step: time.Millisecond}
	}
	if cfg.Model == "" {
		cfg.Model = testModel
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	ctx := t.Context()
	go func() {
		defer close(done)
		s.Run(ctx)
	}()
	// As Serve does: receive times stamped, the connection in the context.
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Listener = recvtime.Listen(ts.Listener)
	ts.Config.ConnContext = withConn
	ts.Start()
	t.Cleanup(func() {
		ts.Close()
		<-done
	})
	return s, ts
}

// post sends body as JSON to path and returns the status and response body.
func post(t *testing.T, ts *httptest.Server, path string, body any) (int, []byte) {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := ts.Client().Post(ts.URL+path, "application/json", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// streamResult is what a parsed SSE stream held.
type streamResult struct {
	infos   []openai.Info // every data event before [DONE], decoded
	raw     [][]byte      // their data
	done    bool          // [DONE] was seen
	tokens  int           // events carrying a token
	usage   openai.Info   // the usage event
	finish  string        // the last finish reason
	timings openai.SurgeTimings
	cached  int
}

// parseStream reads an SSE body with openai.Parser and openai.Decode.
func parseStream(t *testing.T, body []byte) streamResult {
	t.Helper()
	var p openai.Parser
	var res streamResult
	p.Feed(body)
	for {
		ev, ok := p.Next()
		if !ok {
			break
		}
		if ev.Done() {
			res.done = true
			continue
		}
		if res.done {
			t.Fatalf("event after [DONE]: %s", ev.Data)
		}
		in, err := openai.Decode(ev.Data)
		if err != nil {
			t.Fatalf("decoding %s: %v", ev.Data, err)
		}
		res.infos = append(res.infos, in)
		res.raw = append(res.raw, bytes.Clone(ev.Data))
		if in.Token() {
			res.tokens++
		}
		if in.FinishReason != "" {
			res.finish = in.FinishReason
		}
		if in.HasUsage {
			res.usage = in
			var extra struct {
				Usage   openai.UsageDetails `json:"usage"`
				Timings openai.SurgeTimings `json:"surge_timings"`
			}
			if err := json.Unmarshal(ev.Data, &extra); err != nil {
				t.Fatal(err)
			}
			res.timings, res.cached = extra.Timings, extra.Usage.PromptTokensDetails.CachedTokens
		}
	}
	return res
}

// chatBody returns a chat request for prompt.
func chatBody(prompt string, maxTokens int, stream bool) map[string]any {
	b := map[string]any{"model": testModel, "messages": []map[string]string{{"role": "user", "content": prompt}},
		"max_tokens": maxTokens, "stream": stream}
	if stream {
		b["stream_options"] = map[string]bool{"include_usage": true}
	}
	return b
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
