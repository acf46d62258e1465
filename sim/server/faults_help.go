package server

// FaultsHelp describes the fault syntax ParseFaults reads, for a command
// line's help: what each item does and how it is drawn.
const FaultsHelp = `--faults makes the server misbehave on purpose, to test retry logic and
surge's own error handling without a broken real server. SPEC is a
comma-separated list of items:

  status=CODE          answer 400–599 instead (429 and 503 carry Retry-After)
  stall-headers=DUR    hold the request DUR before any response byte
  stall-stream=DUR     pause a stream DUR after some of its chunks
  reset                reset the TCP connection before any response byte
  reset-stream         cut the connection after some chunks of a stream
  broken-sse           write one malformed SSE event into a stream
  retry-after=DUR      Retry-After of injected 429/503 (default 1s; 0: none)
  restart=DOWN@AT      at AT after start, drop every request in flight,
                       empty the engine and refuse all but /metrics with
                       503 + Retry-After for DOWN

Each rule item takes an optional :PROB (0.05 or 5%; default 1, every
request) and @FROM-TO window of offsets since start (@10s-20s; @10s- is
open-ended; @10s-20s/1m repeats every minute). Each rule fires
independently per completion request; stream faults fire at a random token
of streamed requests only. Draws come from --fault-seed, so the same seed
and request order give the same faults. Every fault is counted in
surge:faults_injected_total{kind} on /metrics and logged to stderr. E.g.

  --faults 'status=429:0.1,status=503@10s-20s,retry-after=2s,reset:1%,stall-stream=5s:0.05,restart=5s@30s'`
