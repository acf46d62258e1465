package spec

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
)

// Faults are the faults a client injects on purpose, to see how a server
// degrades and recovers. Shares are fractions of the client's requests in
// [0, 1]; each request carries at most one per-request fault, so the
// shares add up to at most 1.
type Faults struct {
	EmptyPrompt   float64 // send an empty prompt
	MalformedJSON float64 // send a body that is not valid JSON
	// InvalidParams sends a request the API must refuse: a negative
	// max_tokens or a model the server does not serve, alternately.
	InvalidParams float64
	// Churn sends the request on a new connection, closed after it.
	Churn       float64
	OverContext *OverContext // a prompt longer than any context
	Cancel      *Cancel      // the client gives up on the request
	SlowReader  *SlowReader  // the client reads the stream slowly
	Stall       *Stall       // the client stops reading for a while
	// Storms cancel a share of the client's requests in flight at an
	// instant; Bursts multiply its arrival rate for a while.
	Storms []Storm
	Bursts []Burst
}

// OverContext sends prompts of Tokens tokens, past every model's context.
type OverContext struct {
	Share  float64
	Tokens int
}

// Cancel aborts requests after AfterTokens streamed tokens or After from
// the send, whichever is set.
type Cancel struct {
	Share       float64
	AfterTokens int
	After       time.Duration
}

// SlowReader reads responses at BytesPerS bytes per second.
type SlowReader struct {
	Share     float64
	BytesPerS int
}

// Stall stops reading a response for For after its first token.
type Stall struct {
	Share float64
	For   time.Duration
}

// Storm cancels Fraction of the client's requests in flight at At.
type Storm struct {
	At       time.Duration
	Fraction float64
}

// Burst multiplies the client's arrival rate by Factor from At for For,
// on top of its arrival process.
type Burst struct {
	At, For time.Duration
	Factor  float64
}

// DefaultOverContextTokens is the prompt length of over_context faults:
// past the context of every model in surge's catalog but one.
const DefaultOverContextTokens = 300_000

// faultKeys are the keys of a faults block.
var faultKeys = []string{"empty_prompt", "malformed_json", "invalid_params", "churn", "over_context", "cancel", "slow_reader", "stall", "storm", "burst"}

// faults reads a client's faults block.
func (d *decoder) faults(n ast.Node, path string) *Faults {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, faultKeys, "faults")
	f := &Faults{}
	field(o, "empty_prompt", d.share, &f.EmptyPrompt)
	field(o, "malformed_json", d.share, &f.MalformedJSON)
	field(o, "invalid_params", d.share, &f.InvalidParams)
	field(o, "churn", d.share, &f.Churn)
	if n, p, ok := o.get("over_context"); ok {
		f.OverContext = d.overContext(n, p)
	}
	if n, p, ok := o.get("cancel"); ok {
		f.Cancel = d.cancel(n, p)
	}
	if n, p, ok := o.get("slow_reader"); ok {
		f.SlowReader = d.slowReader(n, p)
	}
	if n, p, ok := o.get("stall"); ok {
		f.Stall = d.stall(n, p)
	}
	if n, p, ok := o.get("storm"); ok {
		f.Storms = d.storms(n, p)
	}
	if n, p, ok := o.get("burst"); ok {
		f.Bursts = d.bursts(n, p)
	}
	total := f.EmptyPrompt + f.MalformedJSON + f.InvalidParams + f.Churn + f.OverContext.share() + f.Cancel.share() + f.SlowReader.share() + f.Stall.share()
	d.check(o, "", total > 1, "the per-request fault shares add up to %s: a request carries one fault at most, so they must add up to at most 100%%", pctText(total))
	return f
}

// overContext reads over_context: a share, or {share, tokens}.
func (d *decoder) overContext(n ast.Node, path string) *OverContext {
	oc := &OverContext{Tokens: DefaultOverContextTokens}
	o, ok := d.shareOrObject(n, path, &oc.Share)
	if !ok {
		return oc
	}
	d.known(o, []string{"share", "tokens"}, "over_context")
	requireField(d, o, "share", "the share of requests, like share: 1%", d.share, &oc.Share)
	if field(o, "tokens", d.count, &oc.Tokens) {
		d.countIn(o, "tokens", oc.Tokens, maxFaultTokens, "10M, a trace's longest prompt", 0, "")
	}
	return oc
}

// cancel reads cancel: {share, after_tokens | after}.
func (d *decoder) cancel(n ast.Node, path string) *Cancel {
	c := &Cancel{}
	o, ok := d.object(n, path)
	if !ok {
		return c
	}
	d.known(o, []string{"share", "after_tokens", "after"}, "cancel")
	requireField(d, o, "share", "the share of requests, like share: 5%", d.share, &c.Share)
	field(o, "after_tokens", d.count, &c.AfterTokens)
	field(o, "after", d.duration, &c.After)
	switch {
	case o.has("after_tokens") && o.has("after"):
		d.errorf(o.node, path, "give after_tokens or after, not both")
	case !o.has("after_tokens") && !o.has("after"):
		d.errorf(o.node, path, "missing key after_tokens (cancel after this many tokens) or after (a time from the send, like 500ms)")
	case o.has("after_tokens"):
		d.check(o, "after_tokens", c.AfterTokens < 1, "after_tokens must be at least 1")
	default:
		d.check(o, "after", c.After <= 0, "after must be > 0")
	}
	return c
}

// slowReader reads slow_reader: {share, bytes_per_s}.
func (d *decoder) slowReader(n ast.Node, path string) *SlowReader {
	s := &SlowReader{}
	o, ok := d.object(n, path)
	if !ok {
		return s
	}
	d.known(o, []string{"share", "bytes_per_s"}, "slow_reader")
	requireField(d, o, "share", "the share of requests, like share: 2%", d.share, &s.Share)
	if requireField(d, o, "bytes_per_s", "the reading speed, like bytes_per_s: 2k", d.count, &s.BytesPerS) {
		d.check(o, "bytes_per_s", s.BytesPerS < 1, "bytes_per_s must be at least 1")
	}
	return s
}

// stall reads stall: {share, for}.
func (d *decoder) stall(n ast.Node, path string) *Stall {
	s := &Stall{}
	o, ok := d.object(n, path)
	if !ok {
		return s
	}
	d.known(o, []string{"share", "for"}, "stall")
	requireField(d, o, "share", "the share of requests, like share: 1%", d.share, &s.Share)
	if requireField(d, o, "for", "how long the client stops reading, like for: 30s", d.duration, &s.For) {
		d.check(o, "for", s.For <= 0, "for must be > 0")
	}
	return s
}

// storms reads storm: one {at, fraction} or a list of them.
func (d *decoder) storms(n ast.Node, path string) []Storm {
	var out []Storm
	for _, item := range d.oneOrMany(n, path) {
		o, ok := d.object(item.node, item.path)
		if !ok {
			continue
		}
		d.known(o, []string{"at", "fraction"}, "storm")
		var s Storm
		requireField(d, o, "at", "when the storm strikes, like at: 30s", d.duration, &s.At)
		if requireField(d, o, "fraction", "the share of requests in flight to cancel, like fraction: 50%", d.share, &s.Fraction) {
			d.check(o, "fraction", s.Fraction == 0, "fraction must be > 0")
		}
		out = append(out, s)
	}
	return out
}

// bursts reads burst: one {at, for, factor} or a list of them.
func (d *decoder) bursts(n ast.Node, path string) []Burst {
	var out []Burst
	for _, item := range d.oneOrMany(n, path) {
		o, ok := d.object(item.node, item.path)
		if !ok {
			continue
		}
		d.known(o, []string{"at", "for", "factor"}, "burst")
		var b Burst
		requireField(d, o, "at", "when the burst starts, like at: 20s", d.duration, &b.At)
		if requireField(d, o, "for", "how long it lasts, like for: 10s", d.duration, &b.For) {
			d.check(o, "for", b.For <= 0, "for must be > 0")
		}
		if requireField(d, o, "factor", "the rate multiplier, like factor: 4", d.number, &b.Factor) {
			d.check(o, "factor", b.Factor <= 1, "factor must be > 1 (a burst raises the rate), got %g", b.Factor)
		}
		out = append(out, b)
	}
	return out
}

// located is a node with its path.
type located struct {
	node ast.Node
	path string
}

// oneOrMany reads a mapping or a list of them.
func (d *decoder) oneOrMany(n ast.Node, path string) []located {
	if _, ok := d.value(n, path).(*ast.SequenceNode); !ok {
		return []located{{n, path}}
	}
	items, _ := d.list(n, path)
	out := make([]located, len(items))
	for i, item := range items {
		out[i] = located{item, index(path, i)}
	}
	return out
}

// shareOrObject reads a scalar share into share, or returns the mapping.
func (d *decoder) shareOrObject(n ast.Node, path string, share *float64) (*object, bool) {
	if _, ok := d.value(n, path).(*ast.MappingNode); ok {
		return d.object(n, path)
	}
	if v, ok := d.share(n, path); ok {
		*share = v
	}
	return nil, false
}

// share reads a share of requests: 5% or 0.05.
func (d *decoder) share(n ast.Node, path string) (float64, bool) {
	return parsed(d, n, path, "a share like 5% or 0.05", ParseShare)
}

// ParseShare parses a share in [0, 1], written as a fraction (0.05) or a
// percentage (5%).
func ParseShare(s string) (float64, error) {
	t := strings.TrimSpace(s)
	num, pct := strings.CutSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil {
		return 0, fmt.Errorf("expected a share like 5%% or 0.05, got %s", show(t))
	}
	if pct {
		v /= 100
	}
	if !(v >= 0 && v <= 1) {
		return 0, fmt.Errorf("a share must be between 0 and 100%%, got %s", show(t))
	}
	return v, nil
}

// pctText renders a share as a percentage.
func pctText(v float64) string { return strconv.FormatFloat(v*100, 'g', 4, 64) + "%" }

func (o *OverContext) share() float64 {
	if o == nil {
		return 0
	}
	return o.Share
}

func (c *Cancel) share() float64 {
	if c == nil {
		return 0
	}
	return c.Share
}

func (s *SlowReader) share() float64 {
	if s == nil {
		return 0
	}
	return s.Share
}

func (s *Stall) share() float64 {
	if s == nil {
		return 0
	}
	return s.Share
}
