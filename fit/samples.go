package fit

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"

	"surge/trace"
)

// Add adds session s to the sample: its start, every request's lengths
// and, for a session of several turns, its shape (Episodes).
func (fs *Sample) Add(s *trace.Session) {
	fs.Times = append(fs.Times, float64(s.AtUS)/1e6)
	for _, t := range s.Turns {
		fs.In = append(fs.In, float64(t.InputTokens))
		fs.Out = append(fs.Out, float64(t.OutputTokens))
		fs.Reasoning = append(fs.Reasoning, float64(t.ReasoningTokens))
		fs.Categories = count(fs.Categories, t.Category)
		fs.Styles = count(fs.Styles, t.Style)
	}
	fs.Episodes.add(s)
	if len(s.Turns) > 0 {
		fs.Prefixes.add(&s.Turns[0])
	}
}

// count adds one to m[name], making m, unless name is empty.
func count(m map[string]int, name string) map[string]int {
	if name == "" {
		return m
	}
	if m == nil {
		m = map[string]int{}
	}
	m[name]++
	return m
}

// addCounts adds the counts of q to m, making m when q has any.
func addCounts(m, q map[string]int) map[string]int {
	for name, n := range q {
		if m == nil {
			m = map[string]int{}
		}
		m[name] += n
	}
	return m
}

// Traffic is a trace's sessions as a sample per client.
type Traffic struct {
	// Order lists the clients in the order their first sessions came.
	Order []string
	// Samples and Models are each client's sample and the model of its
	// first session.
	Samples map[string]*Sample
	Models  map[string]string
	// Concurrency is the sessions in flight of each closed-loop client,
	// as the trace's header names them; an open-loop client has none.
	Concurrency map[string]int
	// byModel holds each closed-loop client's sessions again by model,
	// in the order the models came, for Clients to fit apart.
	byModel map[string]*modelParts
	// Limit is the most requests Write adds; 0 is MaxRequests.
	Limit int
	// requests counts the requests Write added.
	requests int
}

// MaxRequests is the most requests a Traffic holds through Write: about
// 250 bytes each (450 with a check's regeneration), so that a fit stays
// within a few GiB whatever the trace's size.
const MaxRequests = 10_000_000

// ErrTooLarge is the error Write returns past its limit.
var ErrTooLarge = errors.New("the trace holds more requests than a fit holds in memory")

// modelParts is a client's sessions by model.
type modelParts struct {
	order   []string
	samples map[string]*Sample
}

// Header records the closed-loop clients of a trace's header h, so that
// Traffic is an importers.Sink.
func (tr *Traffic) Header(h trace.Header) error {
	for _, c := range h.Clients {
		if c.Concurrency > 0 {
			if tr.Concurrency == nil {
				tr.Concurrency = map[string]int{}
			}
			tr.Concurrency[c.Name] = c.Concurrency
		}
	}
	return nil
}

// Write adds session s, as Add does, so that Traffic is an
// importers.Sink; past its Limit it returns ErrTooLarge and adds
// nothing more.
func (tr *Traffic) Write(s *trace.Session) error {
	if tr.requests+len(s.Turns) > cmp.Or(tr.Limit, MaxRequests) {
		return ErrTooLarge
	}
	tr.requests += len(s.Turns)
	tr.Add(s)
	return nil
}

// Add adds session s to its client's sample.
func (tr *Traffic) Add(s *trace.Session) {
	fs, ok := tr.Samples[s.Client]
	if !ok {
		if tr.Samples == nil {
			tr.Samples, tr.Models = map[string]*Sample{}, map[string]string{}
		}
		fs = &Sample{}
		tr.Samples[s.Client], tr.Models[s.Client] = fs, s.Model
		tr.Order = append(tr.Order, s.Client)
	}
	fs.Add(s)
	if tr.Concurrency[s.Client] > 0 {
		tr.addByModel(s)
	}
}

// addByModel adds session s of a closed-loop client to its model's
// part.
func (tr *Traffic) addByModel(s *trace.Session) {
	if tr.byModel == nil {
		tr.byModel = map[string]*modelParts{}
	}
	p := tr.byModel[s.Client]
	if p == nil {
		p = &modelParts{samples: map[string]*Sample{}}
		tr.byModel[s.Client] = p
	}
	fs := p.samples[s.Model]
	if fs == nil {
		fs = &Sample{}
		p.samples[s.Model] = fs
		p.order = append(p.order, s.Model)
	}
	fs.Add(s)
}

// Source yields sessions one by one, io.EOF after the last, as the
// sources of trace/importers do.
type Source interface {
	Next() (*trace.Session, error)
}

// Read adds every session src returns, until io.EOF, to tr; it returns
// the first other error src returns.
func (tr *Traffic) Read(src Source) error {
	for {
		s, err := src.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		tr.Add(s)
	}
}

// totalBins bounds the rate-curve bins of all the clients of a spec, so
// that its stages stay well within spec.MaxBytes (about 70 bytes a bin).
const totalBins = 12000

// Clients fits each client of tr, in order: its arrivals and lengths, and
// with flat its mean rate instead of its rate curve. A closed-loop client
// (Traffic.Concurrency) has no arrivals to fit; its sessions of several
// turns are fitted as agent episodes (FitEpisodes).
func Clients(tr *Traffic, flat bool) ([]Client, error) {
	var clients []Client
	// The stages of all clients stay within a spec's size: at most
	// totalBins bins in all, 24 to 240 a client.
	opt := ArrivalOptions{Flat: flat, MaxBins: min(max(totalBins/max(len(tr.Order), 1), 24), 240)}
	for _, name := range tr.Order {
		s := tr.Samples[name]
		c := Client{Name: name, Model: tr.Models[name], Concurrency: tr.Concurrency[name], Sessions: len(s.Times), Mix: mixOf(s.Categories)}
		var err error
		if c.Concurrency == 0 {
			if c.Arrivals, err = Arrivals(s.Times, opt); err != nil {
				return nil, fmt.Errorf("client %q: %w", name, err)
			}
		} else if s.Episodes.Multi > 0 {
			if parts, err := tr.splitByModel(c); err != nil || parts != nil {
				if err != nil {
					return nil, fmt.Errorf("client %q: %w", name, err)
				}
				clients = append(clients, parts...)
				continue
			}
			e, err := FitEpisodes(s.Episodes)
			if err != nil {
				return nil, fmt.Errorf("client %q: %w", name, err)
			}
			c.Episodes = &e
		}
		if c.Lengths, err = fitLengths(s); err != nil {
			return nil, fmt.Errorf("client %q: %w", name, err)
		}
		if c.Prefix, err = FitPrefix(&s.Prefixes); err != nil {
			return nil, fmt.Errorf("client %q: %w", name, err)
		}
		if shared, own, ok := s.splitShared(); ok && c.Concurrency == 0 && c.Prefix != nil {
			parts, err := splitClient(c, shared, own, opt)
			if err != nil {
				return nil, fmt.Errorf("client %q: %w", name, err)
			}
			clients = append(clients, parts...)
			continue
		}
		clients = append(clients, c)
	}
	return clients, nil
}

// splitByModel fits the closed-loop client c as one client per model of
// its sessions (of at least minSplit sessions each, the rest together
// as NAME.other), each with its share of c's concurrency: episodes of
// models with other context windows compact at other lengths. It
// returns nil when fewer than two parts would have sessions.
func (tr *Traffic) splitByModel(c Client) ([]Client, error) {
	p := tr.byModel[c.Name]
	if p == nil || len(p.order) < 2 {
		return nil, nil
	}
	var keep []string
	other := &Sample{}
	for _, m := range p.order {
		if fs := p.samples[m]; len(fs.Times) >= minSplit {
			keep = append(keep, m)
		} else {
			other.merge(fs)
		}
	}
	if len(keep) == 0 || len(keep) == 1 && len(other.Times) == 0 {
		return nil, nil
	}
	var out []Client
	add := func(suffix, model string, fs *Sample) error {
		share := float64(len(fs.Times)) / float64(c.Sessions)
		part := Client{Name: c.Name + "." + suffix, Model: model, Sessions: len(fs.Times), Of: c.Name, Mix: mixOf(fs.Categories),
			Concurrency: max(1, int(math.Round(float64(c.Concurrency)*share)))}
		var err error
		if fs.Episodes.Multi > 0 {
			e, err := FitEpisodes(fs.Episodes)
			if err != nil {
				return fmt.Errorf("model %q: %w", model, err)
			}
			part.Episodes = &e
		}
		if part.Lengths, err = fitLengths(fs); err != nil {
			return fmt.Errorf("model %q: %w", model, err)
		}
		if part.Prefix, err = FitPrefix(&fs.Prefixes); err != nil {
			return fmt.Errorf("model %q: %w", model, err)
		}
		out = append(out, part)
		return nil
	}
	for _, m := range keep {
		if err := add(clientName(cmp.Or(m, "default")), m, p.samples[m]); err != nil {
			return nil, err
		}
	}
	if len(other.Times) > 0 {
		if err := add("other", c.Model, other); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// splitShared splits a sample of one-request sessions into those whose
// prompt shares a prefix with another's and the rest; ok is false unless
// both hold at least minSplit sessions.
func (fs *Sample) splitShared() (shared, own *Sample, ok bool) {
	if len(fs.In) != len(fs.Times) || len(fs.Prefixes.Head) != len(fs.Times) {
		return nil, nil, false
	}
	shared, own = &Sample{}, &Sample{}
	for i := range fs.Times {
		dst := own
		if fs.Prefixes.Shares(i) {
			dst = shared
		}
		dst.Times, dst.In, dst.Out = append(dst.Times, fs.Times[i]), append(dst.In, fs.In[i]), append(dst.Out, fs.Out[i])
		dst.Reasoning = append(dst.Reasoning, fs.Reasoning[i])
	}
	if len(shared.Times) < minSplit || len(own.Times) < minSplit {
		return nil, nil, false
	}
	// Only shared prompts hit, so the whole sample's hits are theirs.
	shared.Prefixes = fs.Prefixes
	shared.Prefixes.N, shared.Prefixes.Total = len(shared.Times), 0
	for _, x := range shared.In {
		shared.Prefixes.Total += x
	}
	return shared, own, true
}

// minSplit is the least number of sessions of each part of a split
// client.
const minSplit = 10

// splitClient fits c's sessions as two clients, name.shared (the prompts
// that share a prefix, with the pool) and name.own (the rest), each on
// the trace's clock with its own count, so that prompts of their own do
// not carry a pool prompt.
func splitClient(c Client, shared, own *Sample, opt ArrivalOptions) ([]Client, error) {
	var out []Client
	for _, part := range []struct {
		suffix string
		s      *Sample
	}{{".shared", shared}, {".own", own}} {
		// Both parts keep the client's mix: categories are not told
		// apart by prefix.
		p := Client{Name: c.Name + part.suffix, Model: c.Model, Sessions: len(part.s.Times), Of: c.Name, Mix: c.Mix}
		var err error
		if p.Arrivals, err = Arrivals(part.s.Times, opt); err != nil {
			return nil, err
		}
		if p.Lengths, err = fitLengths(part.s); err != nil {
			return nil, err
		}
		if part.suffix == ".shared" {
			if p.Prefix, err = FitPrefix(&part.s.Prefixes); err != nil {
				return nil, err
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// merge adds the sessions of q, another client's, to fs; Times are then
// no longer in order.
func (fs *Sample) merge(q *Sample) {
	fs.Times, fs.In, fs.Out = append(fs.Times, q.Times...), append(fs.In, q.In...), append(fs.Out, q.Out...)
	fs.Reasoning = append(fs.Reasoning, q.Reasoning...)
	fs.Categories, fs.Styles = addCounts(fs.Categories, q.Categories), addCounts(fs.Styles, q.Styles)
	fs.Prefixes.merge(&q.Prefixes)
	fs.Episodes.merge(&q.Episodes)
}

// fitLengths fits a sample's lengths: input, and output and reasoning
// apart when any request reasons (the output then being the answer).
func fitLengths(fs *Sample) (LengthFit, error) {
	if share(fs.Reasoning, fs.Out) == 0 {
		return Lengths(fs.In, fs.Out)
	}
	answer := make([]float64, len(fs.Out))
	for i, o := range fs.Out {
		answer[i] = math.Max(o-fs.Reasoning[i], 0)
	}
	l, err := Lengths(fs.In, answer)
	if err != nil {
		return l, err
	}
	r, err := fitAny(fs.Reasoning)
	if err != nil {
		return l, fmt.Errorf("fitting reasoning lengths: %w", err)
	}
	l.Reasoning, l.ReasoningShare = &r, share(fs.Reasoning, fs.Out)
	return l, nil
}
