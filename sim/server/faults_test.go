package server

import (
	"encoding/json"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFaultsOnTheWire sends one 20-token chat request to a server injecting
// one fault and checks what a plain net/http client sees, that the fault
// was counted on /metrics and logged, and that the engine is left empty.
func TestFaultsOnTheWire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, spec string
		stream     bool
		timeout    time.Duration // the client's; 0 is none
		kind       string        // the counter that must read 1; "" for none at all
		finished   int64         // requests the engine must have finished, not aborted
		check      func(t *testing.T, o observed)
	}{
		{"status 429 carries the configured Retry-After", "status=429,retry-after=2s", true, 0, "status_429", 0,
			func(t *testing.T, o observed) {
				wantStatus(t, o, 429, "2")
				if !strings.Contains(string(o.body), `"type":"TooManyRequestsError"`) || !strings.Contains(string(o.body), `"code":429`) {
					t.Errorf("body %s, want vLLM's error shape", o.body)
				}
			}},
		{"status 503 in an open window carries the default Retry-After", "status=503@0s-1h", false, 0, "status_503", 0,
			func(t *testing.T, o observed) { wantStatus(t, o, 503, "1") }},
		{"status 500 carries no Retry-After", "status=500", false, 0, "status_500", 0,
			func(t *testing.T, o observed) { wantStatus(t, o, 500, "") }},
		{"a rule outside its window does nothing", "status=503@1h-2h", true, 0, "", 1,
			func(t *testing.T, o observed) { wantComplete(t, o) }},
		{"a stall before the headers outlasts the client's timeout", "stall-headers=2s", true, 300 * time.Millisecond, "stall_headers", 0,
			func(t *testing.T, o observed) {
				if !isTimeout(o.err) {
					t.Errorf("got status %d, error %v; want no headers before the client's timeout", o.status, o.err)
				}
			}},
		{"a stall mid-stream leaves a gap after some chunks", "stall-stream=1s", true, 0, "stall_stream", 1,
			func(t *testing.T, o observed) {
				wantComplete(t, o)
				gap, before := time.Duration(0), 0
				for i := 1; i < len(o.at); i++ {
					if d := o.at[i] - o.at[i-1]; d > gap {
						gap, before = d, i
					}
				}
				// The server sleeps a full second between two writes.
				if gap < 500*time.Millisecond || before < 2 {
					t.Errorf("longest gap %v after %d events, want ≥ 500ms after the role and a token", gap, before)
				}
			}},
		{"a reset before the headers is a connection reset", "reset", true, 0, "reset", 0,
			func(t *testing.T, o observed) {
				if !errors.Is(o.err, syscall.ECONNRESET) {
					t.Errorf("got status %d, error %v; want a connection reset", o.status, o.err)
				}
			}},
		{"a reset mid-stream cuts the body", "reset-stream", true, 0, "reset_stream", 0,
			func(t *testing.T, o observed) {
				tokens, _ := o.tokens()
				if o.status != 200 || o.readErr == nil || o.done || tokens < 1 || tokens >= 20 {
					t.Errorf("status %d, %d tokens, read error %v, [DONE] %v; want 200, some tokens, then a cut",
						o.status, tokens, o.readErr, o.done)
				}
			}},
		{"a broken event, then the stream goes on", "broken-sse", true, 0, "broken_sse", 1,
			func(t *testing.T, o observed) {
				wantComplete(t, o)
				if _, broken := o.tokens(); broken != 1 {
					t.Errorf("%d events fail to decode, want 1: %q", broken, o.events)
				}
			}},
		{"stream faults spare whole responses", "reset-stream,broken-sse,stall-stream=5s", false, 0, "", 1,
			func(t *testing.T, o observed) {
				if o.status != 200 || !json.Valid(o.body) {
					t.Errorf("status %d, body %s; want a whole JSON response", o.status, o.body)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// 10 ms steps: the engine cannot outrun a handler that cuts its
			// stream by the rest of the stream, so an abort is seen as one.
			s, ts, log := faultServer(t, tc.spec, Config{Coster: &prefillCost{step: 10 * time.Millisecond}})
			client := *ts.Client()
			client.Timeout = tc.timeout
			body := chatBody("tell me a story", 20, tc.stream)
			body["ignore_eos"] = true
			tc.check(t, send(t, &client, ts.URL, body))
			waitDrained(t, s)
			if n := s.Stats().Finished; n != tc.finished {
				t.Errorf("the engine finished %d requests, want %d", n, tc.finished)
			}
			if tc.kind == "" {
				if text := scrape(t, ts); strings.Contains(text, "surge:faults_injected_total{") {
					t.Errorf("faults counted, want none:\n%s", text)
				}
				return
			}
			if n := faultCount(t, ts, tc.kind); n != 1 {
				t.Errorf("faults_injected_total{kind=%q} = %v, want 1", tc.kind, n)
			}
			if !strings.Contains(log.String(), "kind="+tc.kind+" ") {
				t.Errorf("log %q lacks kind=%s", log.String(), tc.kind)
			}
		})
	}
}

// wantStatus checks an injected error status and its Retry-After.
func wantStatus(t *testing.T, o observed, status int, retryAfter string) {
	t.Helper()
	if o.err != nil || o.status != status || o.header.Get("Retry-After") != retryAfter {
		t.Errorf("status %d, Retry-After %q, error %v; want %d, %q", o.status, o.header.Get("Retry-After"), o.err, status, retryAfter)
	}
}

// wantComplete checks a whole 20-token stream.
func wantComplete(t *testing.T, o observed) {
	t.Helper()
	if tokens, _ := o.tokens(); o.err != nil || o.status != 200 || !o.done || o.readErr != nil || tokens != 20 {
		t.Errorf("status %d, %d tokens, [DONE] %v, errors %v, %v; want a complete 20-token stream",
			o.status, tokens, o.done, o.err, o.readErr)
	}
}

// TestFaultDrawsAreSeeded checks the draws: the same seed gives the same
// faults, another seed others, the rate is near the probability, and a
// stream fault lands within the stream.
func TestFaultDrawsAreSeeded(t *testing.T) {
	t.Parallel()
	f, err := ParseFaults("status=429:0.3,reset-stream:0.5")
	if err != nil {
		t.Fatal(err)
	}
	draws := func(seed uint64, outputLen int) (statuses string, ats []int) {
		s, err := New(Config{Model: testModel, Coster: &prefillCost{}, Faults: f, FaultSeed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for range 200 {
			p := s.faults.draw(0, true, outputLen)
			b.WriteByte("-x"[min(p.status, 1)])
			for _, sf := range p.stream {
				ats = append(ats, sf.at)
			}
		}
		return b.String(), ats
	}
	a, _ := draws(7, 50)
	if b, _ := draws(7, 50); a != b {
		t.Errorf("seed 7 drew %s then %s", a, b)
	}
	if c, _ := draws(8, 50); a == c {
		t.Errorf("seeds 7 and 8 both drew %s", a)
	}
	// 200 draws at p = 0.3: mean 60, σ = √(200·0.3·0.7) ≈ 6.5; allow ±4σ.
	if n := strings.Count(a, "x"); n < 34 || n > 86 {
		t.Errorf("%d of 200 draws fired at p = 0.3", n)
	}
	for _, tc := range []struct {
		outputLen, lo, hi int
		reason            string
	}{
		{1, 1, 1, "a one-token stream: before its end"},
		{2, 1, 1, "after the first of two tokens"},
		{50, 1, 49, "somewhere inside a long stream"},
	} {
		_, ats := draws(3, tc.outputLen)
		lo, hi := ats[0], ats[0]
		for _, at := range ats {
			lo, hi = min(lo, at), max(hi, at)
		}
		if lo < tc.lo || hi > tc.hi || (tc.hi-tc.lo > 10 && hi-lo < (tc.hi-tc.lo)/2) {
			t.Errorf("%s: positions in [%d, %d], want within and spread over [%d, %d]", tc.reason, lo, hi, tc.lo, tc.hi)
		}
	}
}
