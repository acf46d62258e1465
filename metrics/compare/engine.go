package compare

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"surge/trace"
)

// virtualScheme starts the target of a surge sim run: the engine in
// virtual time, named after it.
const virtualScheme = "sim://"

// engineOf names the built-in engine behind a run's records, or "" for an
// outside server: the header's Engine (surge run without a target), else a
// surge sim target without its scheme.
func engineOf(h trace.RunHeader) string {
	if h.Engine != "" {
		return h.Engine
	}
	if name, ok := strings.CutPrefix(h.Target, virtualScheme); ok {
		return name
	}
	return ""
}

// engine is one built-in engine's name taken apart: MODEL@GPUxTP?QUERY,
// the query naming the settings that differ from vLLM's defaults.
type engine struct {
	served string // the model name it served, when a run had several
	model  string
	gpu    string
	tp     string
	flags  map[string]string
}

// parseEngines reads an engine name (trace.RunHeader.Engine): one engine,
// or several joined by commas, each "served=engine".
func parseEngines(s string) []engine {
	var es []engine
	for part := range strings.SplitSeq(s, ",") {
		var e engine
		if eq, at := strings.Index(part, "="), strings.Index(part, "@"); eq >= 0 && eq < at {
			e.served, part = part[:eq], part[eq+1:]
		}
		hw, query, _ := strings.Cut(part, "?")
		e.model, hw, _ = strings.Cut(hw, "@")
		if i := strings.LastIndex(hw, "x"); i >= 0 {
			e.gpu, e.tp = hw[:i], hw[i+1:]
		} else {
			e.gpu = hw
		}
		e.flags = map[string]string{}
		if q, err := url.ParseQuery(query); err == nil {
			for k, v := range q {
				e.flags[k] = strings.Join(v, ",")
			}
		}
		es = append(es, e)
	}
	return es
}

// engineDiffs lists what differs between two built-in engines' names, as
// "gpu: base H100-SXM, candidate H200"; a setting a name does not list is
// vLLM's default. Engines are matched by the model they served, else in
// order.
func engineDiffs(base, cand string) []string {
	bs, cs := parseEngines(base), parseEngines(cand)
	if len(bs) != len(cs) {
		return []string{fmt.Sprintf("engines: base %d, candidate %d", len(bs), len(cs))}
	}
	var out []string
	for i, b := range bs {
		c := cs[i]
		for _, x := range cs {
			if x.served == b.served {
				c = x
			}
		}
		prefix := ""
		if b.served != "" {
			prefix = b.served + " "
		}
		differ := func(what, x, y string) {
			if x != y {
				out = append(out, fmt.Sprintf("%s%s: base %s, candidate %s", prefix, what, x, y))
			}
		}
		differ("model", b.model, c.model)
		differ("gpu", b.gpu, c.gpu)
		differ("tp", b.tp, c.tp)
		keys := slices.Sorted(maps.Keys(b.flags))
		for _, k := range slices.Sorted(maps.Keys(c.flags)) {
			if _, ok := b.flags[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			differ(k, orDefault(b.flags[k]), orDefault(c.flags[k]))
		}
	}
	return out
}

// orDefault is v, or "default" when the name did not list the setting.
func orDefault(v string) string {
	if v == "" {
		return "default"
	}
	return v
}

// targetWarnings compare where the runs' requests went: two built-in
// engines by model, GPU, TP and engine settings (their loopback addresses
// are chosen at random and mean nothing), anything else by target.
func targetWarnings(b, c Run) []string {
	if b.Engine == "" || c.Engine == "" {
		if b.Target != c.Target {
			return []string{fmt.Sprintf("targets differ: base %q, candidate %q", b.Target, c.Target)}
		}
		return nil
	}
	var w []string
	if bv, cv := strings.HasPrefix(b.Target, virtualScheme), strings.HasPrefix(c.Target, virtualScheme); bv != cv {
		w = append(w, fmt.Sprintf("the built-in engine ran in %s time for the base and in %s time for the candidate: the runs' clients differ", clock(bv), clock(cv)))
	}
	if d := engineDiffs(b.Engine, c.Engine); len(d) > 0 {
		w = append(w, "built-in engines differ: "+strings.Join(d, "; "))
	}
	return w
}

// clock names virtual or real time.
func clock(virtual bool) string {
	if virtual {
		return "virtual"
	}
	return "real"
}
