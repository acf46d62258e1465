package server

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// errRestart ends requests in flight when a simulated restart drops them;
// their handlers close the connection instead of writing it.
var errRestart = &apiError{status: http.StatusServiceUnavailable, typ: "ServiceUnavailableError",
	msg: "the engine is restarting"}

// injector draws and records a server's faults. Handlers share it.
type injector struct {
	cfg   Faults
	start time.Time
	count *prometheus.CounterVec // surge:faults_injected_total{kind}

	mu  sync.Mutex // guards rng and writes to log
	rng *rand.Rand
	log io.Writer
}

func newInjector(cfg Config, start time.Time, m *metrics) *injector {
	count := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "surge:faults_injected_total",
		Help:        "Faults injected on purpose (surge serve --faults), by kind.",
		ConstLabels: prometheus.Labels{"model_name": cfg.Model}}, []string{"kind"})
	m.reg.MustRegister(count)
	return &injector{cfg: cfg.Faults, start: start, count: count, log: cfg.FaultLog,
		rng: rand.New(rand.NewPCG(cfg.FaultSeed, 0x5eedfa17))}
}

// record counts one injected fault of kind and logs it with detail.
func (in *injector) record(kind, detail string) {
	in.count.WithLabelValues(kind).Inc()
	if in.log == nil {
		return
	}
	t := time.Since(in.start).Round(time.Millisecond)
	in.mu.Lock()
	defer in.mu.Unlock()
	fmt.Fprintf(in.log, "fault t=%v kind=%s %s\n", t, kind, detail)
}

// plan is what the faults drawn for one request will do to it.
type plan struct {
	restarted <-chan struct{} // closed if the engine restarts meanwhile
	stall     time.Duration   // pause before the headers
	status    int             // answer with this status instead
	reset     bool            // reset the connection instead
	stream    []streamFault   // faults inside the stream, by token count
}

// streamFault is one fault inside a stream: it fires once at tokens have
// been written (before the end events if the stream is shorter).
type streamFault struct {
	kind  FaultKind
	stall time.Duration
	at    int
}

// draw decides the faults of a request arriving at offset now whose output
// is outputLen tokens, streamed or not. Each rule whose window is open
// fires with its probability, one uniform draw per rule (none when Prob is
// 1); a stream fault draws its position u too, firing after
// at = 1 + ⌊u·(max(outputLen, 2) − 1)⌋ ∈ [1, max(outputLen − 1, 1)] tokens.
// Of status and reset, the first rule to fire wins.
func (in *injector) draw(now time.Duration, stream bool, outputLen int) plan {
	var p plan
	if len(in.cfg.Rules) == 0 {
		return p
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, r := range in.cfg.Rules {
		if (r.Kind.streams() && !stream) || !r.Window.Contains(now) {
			continue
		}
		if r.Prob < 1 && in.rng.Float64() >= r.Prob {
			continue
		}
		switch r.Kind {
		case FaultStallHeaders:
			p.stall = max(p.stall, r.Stall)
		case FaultStatus, FaultReset:
			if p.status == 0 && !p.reset {
				p.status, p.reset = r.Status, r.Kind == FaultReset
			}
		default:
			at := 1 + int(in.rng.Float64()*float64(max(outputLen, 2)-1))
			p.stream = append(p.stream, streamFault{kind: r.Kind, stall: r.Stall, at: at})
		}
	}
	slices.SortStableFunc(p.stream, func(a, b streamFault) int { return a.at - b.at })
	return p
}

// injectBefore applies p's faults that act before the response starts:
// the stall, then the status or the reset. It reports whether the request
// should go on to be served.
func (s *Server) injectBefore(w http.ResponseWriter, r *http.Request, p plan) bool {
	in := s.faults
	if p.stall > 0 {
		in.record("stall_headers", fmt.Sprintf("stall=%v path=%s", p.stall, r.URL.Path))
		t := time.NewTimer(p.stall)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return false
		case <-p.restarted:
			in.record("restart_cut", "path="+r.URL.Path)
			panic(http.ErrAbortHandler)
		}
	}
	switch {
	case p.status != 0:
		in.record(fmt.Sprintf("status_%d", p.status), "path="+r.URL.Path)
		if ra := in.cfg.retryAfter(); ra != "" && (p.status == http.StatusTooManyRequests || p.status == http.StatusServiceUnavailable) {
			w.Header().Set("Retry-After", ra)
		}
		writeError(w, injectedError(p.status))
		return false
	case p.reset:
		in.record("reset", "path="+r.URL.Path)
		resetConn(w)
		return false
	}
	return true
}

// injectedError is the body of an injected status, in vLLM's error shape
// with a type named after the status, e.g. "TooManyRequestsError".
func injectedError(status int) *apiError {
	typ := strings.ReplaceAll(http.StatusText(status), " ", "") + "Error"
	if http.StatusText(status) == "" {
		typ = "Error"
	}
	return &apiError{status: status, typ: typ, msg: fmt.Sprintf("injected fault: status %d", status)}
}

// resetConn closes the client's connection with a TCP RST (SO_LINGER 0)
// and no response. Where the connection cannot be taken over (HTTP/2), it
// aborts the handler, which resets the stream.
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	// *net.TCPConn, or the receive-stamping connection that embeds one.
	if tc, ok := conn.(interface{ SetLinger(sec int) error }); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

// gate refuses every request but /metrics with 503 and a Retry-After of
// the downtime left while a simulated restart is down.
func (s *Server) gate(next http.Handler) http.Handler {
	if len(s.faults.cfg.Restarts) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if left, down := s.faults.down(time.Since(s.start)); down && r.URL.Path != "/metrics" {
			s.faults.record("restart_refused", fmt.Sprintf("left=%v path=%s", left.Round(time.Millisecond), r.URL.Path))
			w.Header().Set("Retry-After", seconds(left))
			writeError(w, errRestart)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// down returns the downtime left at offset now, if a restart is down.
func (in *injector) down(now time.Duration) (time.Duration, bool) {
	for _, r := range in.cfg.Restarts {
		if now >= r.At && now < r.At+r.Down {
			return r.At + r.Down - now, true
		}
	}
	return 0, false
}
