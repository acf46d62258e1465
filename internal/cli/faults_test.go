package cli

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"surge/trace"
)

// stormSpec keeps about 40 requests of 300 tokens in flight against the
// built-in engine when a storm cancels half of them, and injects a share
// of per-request faults the engine must refuse.
const stormSpec = `version: 1
seed: 12
duration: 3s
clients:
  - name: chat
    model: Llama-3.1-8B
    rate: 20/s
    arrival: {process: constant}
    input: 200
    output: 300
    sampling: {exact_output: true}
    faults:
      storm: {at: 2s, fraction: 50%}
  - name: bad
    model: Llama-3.1-8B
    rate: 10/s
    input: 50
    output: 10
    faults:
      empty_prompt: 30%
      invalid_params: 30%
      malformed_json: 30%
`

// TestStormAgainstEngine runs a cancellation storm and malformed requests
// against the built-in engine. Each stormed request is recorded as
// cancelled with the tokens it had received; the engine stops generating
// for them (its generation counter exceeds the tokens the client received
// by a few steps per cancelled request, where it would exceed it by about
// 200 were they left to run) and ends with no KV block in use;
// malformed and invalid requests are refused with 4xx.
func TestStormAgainstEngine(t *testing.T) {
	t.Parallel()
	url := startEngine(t)
	rs := runSpec(t, stormSpec, url)
	var received, stormed int
	kinds := map[string]int{}
	for _, r := range rs.Records {
		received += r.Chunks
		switch r.Fault {
		case "":
		case trace.FaultStorm:
			stormed++
			if r.ErrorClass != trace.ErrCancelled || r.Chunks == 0 || r.Chunks >= 300 {
				t.Errorf("stormed request %d: class %q with %d tokens; want cancelled, part-way", r.Session, r.ErrorClass, r.Chunks)
			}
		case trace.FaultEmptyPrompt:
			kinds[r.Fault]++ // a chat template makes an empty message a prompt: servers differ
		default:
			kinds[r.Fault]++
			if r.Status < 400 || r.Status > 499 {
				t.Errorf("%s request %d: status %d, want a 4xx refusal (%s)", r.Fault, r.Session, r.Status, r.Error)
			}
		}
	}
	if stormed < 10 {
		t.Errorf("the storm cancelled %d requests, want about 20 of the 40 in flight", stormed)
	}
	if len(kinds) != 3 {
		t.Errorf("faulty requests by kind %v, want three kinds", kinds)
	}
	generated, kv := engineCounters(t, url)
	// A cancelled request's stream stops when the engine notices the
	// closed connection, a few steps later on a loaded machine; left to
	// run, each would make about 200 more tokens.
	if excess := generated - float64(received); excess < 0 || excess > float64(50*stormed) {
		t.Errorf("the engine generated %.0f tokens, the client received %d: %.0f more for %d cancelled requests", generated, received, excess, stormed)
	}
	if kv != 0 {
		t.Errorf("KV-cache usage %g after the run, want 0", kv)
	}
}

// engineCounters reads the engine's generated tokens and KV-cache usage
// from its /metrics.
func engineCounters(t *testing.T, url string) (generated, kv float64) {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(line, "#") {
			continue
		}
		v, _ := strconv.ParseFloat(f[len(f)-1], 64)
		switch {
		case strings.HasPrefix(line, "vllm:generation_tokens_total"):
			generated += v
		case strings.HasPrefix(line, "vllm:kv_cache_usage_perc"):
			kv += v
		}
	}
	return generated, kv
}
