package spec

import (
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"surge/dist"
)

// Session kinds.
const (
	// KindSingle is one request per session, the default.
	KindSingle = "single"
	// KindChat is a multi-turn conversation: each turn's prompt is the
	// whole conversation so far, system prompt, earlier user messages and
	// replies included, and the next user message.
	KindChat = "chat"
	// KindAgent is an agent episode: LLM calls in a growing context with
	// parallel tool calls between them (see Agent).
	KindAgent = "agent"
	// KindRAG is one retrieval-augmented request: documents drawn by
	// popularity from a shared pool, then the question (see RAG).
	KindRAG = "rag"
	// KindBatch is an offline job: many independent requests released
	// together or within a window, with a completion deadline (see Batch).
	KindBatch = "batch"
)

// History modes: what a later turn of a conversation carries as the
// earlier replies.
const (
	// HistoryLive carries the server's actual replies, as a real client
	// does (the default).
	HistoryLive = "live"
	// HistoryPinned carries the trace's synthetic replies of the planned
	// lengths, so that every run sends byte-identical requests.
	HistoryPinned = "pinned"
)

// Session is the shape of a client's sessions.
type Session struct {
	Kind string // KindSingle (default), KindChat, KindAgent, KindRAG or KindBatch
	// Turns is the number of requests per chat session (≥ 1 after
	// rounding). Each turn's user message length is the client's input,
	// and its reply length the client's output. With a dataset it is the
	// most turns of a conversation sent, nil for all.
	Turns dist.Dist
	// Think is the time, in seconds, between a reply and the next user
	// turn; nil means none.
	Think   dist.Dist
	History string // HistoryLive (default) or HistoryPinned
	Agent   *Agent // the episode's shape, for KindAgent
	RAG     *RAG   // the document pool and retrieval, for KindRAG
	Batch   *Batch // the job's size, release window and deadline, for KindBatch
}

// Prefix is a pool of system prompts shared across a client's sessions:
// each session starts with one, drawn by popularity, so sessions that draw
// the same one share a prompt prefix a server can cache.
type Prefix struct {
	Pool   int       // distinct system prompts
	Length dist.Dist // tokens of each, sampled once per system prompt
	// Zipf is the popularity exponent: system prompt i (from 1) is drawn
	// with probability ∝ 1/i^Zipf; 0 draws uniformly.
	Zipf float64
}

// sessionKinds are the kinds a session may name, and later is what the
// planned ones say when named now.
var (
	sessionKinds = []string{KindSingle, KindChat, KindAgent, KindRAG, KindBatch}
	plannedKinds = map[string]string{}
)

// session reads a client's session block; a chat of a client with a
// dataset (data) takes its turns from the file, so its turns are optional.
func (d *decoder) session(n ast.Node, path string, data bool) Session {
	s := Session{Kind: KindSingle, History: HistoryLive}
	o, ok := d.object(n, path)
	if !ok {
		return s
	}
	d.known(o, slices.Concat([]string{"kind", "turns", "think", "history"}, agentKeys, ragKeys, batchKeys), "session")
	if kn, kpath, ok := o.get("kind"); ok {
		if k, ok := d.str(kn, kpath); ok {
			if msg, planned := plannedKinds[k]; planned {
				d.errorf(d.value(kn, kpath), kpath, "%s (kinds now: %s)", msg, strings.Join(sessionKinds, ", "))
			} else if k, ok := d.oneOf(kn, kpath, "session kind", sessionKinds); ok {
				s.Kind = k
			}
		}
	}
	if s.Kind == KindChat {
		if !data || o.has("turns") {
			s.Turns = d.lengths(o, "turns", "the number of turns per session, like turns: 4 or {dist: uniform, min: 2, max: 8}")
		}
		s.Think = d.durations(o, "think")
	} else {
		for _, k := range []string{"turns", "think"} {
			d.check(o, k, o.has(k), "%s is for chat sessions; add kind: chat", k)
		}
	}
	if s.Kind == KindAgent {
		s.Agent = d.agent(o)
	} else {
		for _, k := range agentKeys {
			d.check(o, k, o.has(k), "%s is for agent sessions; add kind: agent", k)
		}
	}
	if d.only(o, s.Kind, KindRAG, ragKeys) {
		s.RAG = d.rag(o)
	}
	if d.only(o, s.Kind, KindBatch, batchKeys) {
		s.Batch = d.batch(o)
	}
	field(o, "history", d.choice("history", []string{HistoryLive, HistoryPinned}), &s.History)
	return s
}

// prefix reads a client's shared system prompts.
func (d *decoder) prefix(n ast.Node, path string) *Prefix {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, []string{"pool", "length", "zipf"}, "prefix")
	p := &Prefix{Pool: 1}
	if field(o, "pool", d.count, &p.Pool) {
		d.countIn(o, "pool", p.Pool, MaxPool, "spec.MaxPool", 0, "")
	}
	p.Length = d.lengths(o, "length", "the system prompt length in tokens, like length: 2k")
	if field(o, "zipf", d.number, &p.Zipf) {
		d.check(o, "zipf", p.Zipf < 0, "zipf must be ≥ 0 (0 draws uniformly), got %g", p.Zipf)
	}
	return p
}
