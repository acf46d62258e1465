package spec

import (
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// validate checks what no single key can: how long to run, unique client
// names, and how each client's load is given. It works from which keys are
// present, so a value that failed to decode does not cause a second,
// misleading problem. It also resolves each client's share of the top-level
// rate into its Arrival.Rate.
func (d *decoder) validate(s *Spec, src *source) {
	d.validateRun(s, src.root)
	d.validateNames(s, src)
	sharers := d.validateLoad(src)
	d.shareRate(s, src, sharers)
	for i, cs := range src.clients {
		if cs != nil && s.Clients[i].Concurrency == 0 {
			d.validateArrival(s.Clients[i], cs)
		}
	}
}

// validateRun checks that the run has an end and that warmup ends first.
func (d *decoder) validateRun(s *Spec, o *object) {
	if !o.has("duration") && !o.has("requests") {
		d.errorf(o.node, "", "missing key duration or requests (how long to run, like duration: 10m; with both, whichever ends first)")
	}
	d.warnRun(s, o)
	if s.Duration > 0 && s.Warmup >= s.Duration {
		d.check(o, "warmup", true, "warmup %s is not shorter than duration %s", FormatDuration(s.Warmup), FormatDuration(s.Duration))
	}
}

// validateNames checks that client names are unique.
func (d *decoder) validateNames(s *Spec, src *source) {
	first := map[string]ast.Node{}
	for i, cs := range src.clients {
		if cs == nil || cs.name == nil || s.Clients[i].Name == "" {
			continue
		}
		name := s.Clients[i].Name
		if at, dup := first[name]; dup {
			line, col := pos(at)
			where := cs.name
			if where == at {
				where = cs.item // the same mapping again, through an alias
			}
			d.errorf(where, index("clients", i)+".name", "duplicate client name %s (first at %d:%d)", show(name), line, col)
			continue
		}
		first[name] = cs.name
	}
}

// validateLoad checks how each client gives its load and returns the indexes
// of the clients that take a share of the top-level rate.
//
// A client is closed-loop (concurrency) or open-loop; an open-loop client
// gets its rate from exactly one of its own rate, arrival.stages or
// arrival.ramp, or a weighted share of the top-level rate. A closed-loop
// client needs the top-level requests, which the closed-loop clients split
// by weight with every other client; so in a spec with a closed-loop client
// every weight counts, and only without one is a weight beside a rate, stages
// or a ramp a mistake.
func (d *decoder) validateLoad(src *source) []int {
	closed := slices.ContainsFunc(src.clients, func(cs *clientSource) bool {
		return cs != nil && cs.obj.has("concurrency")
	})
	var sharers []int
	for i, cs := range src.clients {
		if cs == nil {
			continue
		}
		o, path := cs.obj, index("clients", i)
		curve := curveKey(cs.arrival)
		switch {
		case o.has("concurrency"):
			d.validateClosed(src.root, o, path)
		case o.has("rate") && o.has("weight") && !closed:
			d.errorf(o.at("weight"), join(path, "weight"), "conflicts with rate: weight splits the top-level rate; give one")
		case o.has("rate") && curve != "":
			d.errorf(cs.arrival.at(curve), join(path, "arrival."+curve), "conflicts with rate: %s set the rate; drop one", curve)
		case curve != "" && o.has("weight") && !closed:
			d.errorf(o.at("weight"), join(path, "weight"), "has no effect: arrival.%s sets this client's rate", curve)
		case o.has("rate") || curve != "":
		case !src.root.has("rate"):
			d.errorf(o.node, path, "no rate: give rate, concurrency, arrival.stages or arrival.ramp, or a top-level rate to share")
		default:
			sharers = append(sharers, i)
		}
	}
	return sharers
}

// curveKey returns "stages" or "ramp" when an arrival block sets the rate
// over time, and "" otherwise.
func curveKey(a *object) string {
	switch {
	case a == nil:
		return ""
	case a.has("stages"):
		return "stages"
	case a.has("ramp"):
		return "ramp"
	}
	return ""
}

// validateClosed checks a closed-loop client: it has no schedule, and its
// sessions are its weight's share of the top-level requests.
func (d *decoder) validateClosed(root, o *object, path string) {
	for _, k := range []string{"rate", "arrival"} {
		if o.has(k) {
			d.errorf(o.at("concurrency"), join(path, "concurrency"),
				"conflicts with %s: a closed-loop client keeps N requests in flight and has no schedule", k)
		}
	}
	if !root.has("requests") {
		d.errorf(o.at("concurrency"), join(path, "concurrency"),
			"a closed-loop client needs requests: the number of sessions to generate (top-level requests)")
	}
}

// shareRate splits the top-level rate across the sharers by weight:
// client i gets rate × wᵢ / Σⱼ wⱼ.
func (d *decoder) shareRate(s *Spec, src *source, sharers []int) {
	if !src.root.has("rate") {
		return
	}
	if len(sharers) == 0 && len(src.clients) > 0 {
		d.errorf(src.root.at("rate"), "rate", "no client takes a share of it: each has its own rate, stages, ramp or concurrency")
		return
	}
	total := 0.0
	for _, i := range sharers {
		total += s.Clients[i].Weight
	}
	for _, i := range sharers {
		if total > 0 {
			s.Clients[i].Arrival.Rate = s.Rate * s.Clients[i].Weight / total
		}
	}
}

// validateArrival runs package arrival's own checks on a client whose
// arrival decoded cleanly, placing each problem at the key it names. The
// decoder checks the same rules with positions; this catches any rule the
// arrival package adds later.
func (d *decoder) validateArrival(c Client, cs *clientSource) {
	prefix := cs.obj.path
	if len(d.errsUnder(prefix)) > 0 || len(d.errsUnder("rate")) > 0 {
		return
	}
	err := c.Arrival.Validate()
	if err == nil {
		return
	}
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	for _, e := range list {
		rel, msg, ok := strings.Cut(e.Error(), ": ")
		if !ok || strings.ContainsAny(rel, " ") {
			rel, msg = "arrival", e.Error()
		}
		if rel == "arrival.rate" {
			rel = "rate"
		}
		d.errorf(d.locate(cs.obj, rel), join(prefix, rel), "%s", msg)
	}
}

// locate finds the node at a relative path like "arrival.stages[2].at" below
// o, or the deepest node on the way when the path goes further than the
// spec does. It reports nothing: the spec was read cleanly already.
func (d *decoder) locate(o *object, rel string) ast.Node {
	quiet := &decoder{anchors: d.anchors}
	var at ast.Node = o.node
	cur := o
	for _, seg := range strings.Split(rel, ".") {
		key, idx, hasIdx := strings.Cut(seg, "[")
		n, ok := cur.vals[key]
		if !ok {
			break
		}
		at = n
		if hasIdx {
			i, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
			seq, ok := quiet.value(n, "").(*ast.SequenceNode)
			if err != nil || !ok || i < 0 || i >= len(seq.Values) {
				break
			}
			n, at = seq.Values[i], seq.Values[i]
		}
		if cur, ok = quiet.object(n, ""); !ok {
			break
		}
	}
	return at
}
