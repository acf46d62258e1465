package fit

import (
	"fmt"
	"io"

	"surge/trace"
)

// Add adds session s to the sample: its start, every request's lengths
// and, for a session of several turns, its shape (Episodes).
func (fs *Sample) Add(s *trace.Session) {
	fs.Times = append(fs.Times, float64(s.AtUS)/1e6)
	for _, t := range s.Turns {
		fs.In = append(fs.In, float64(t.InputTokens))
		fs.Out = append(fs.Out, float64(t.OutputTokens))
	}
	fs.Episodes.add(s)
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
// importers.Sink.
func (tr *Traffic) Write(s *trace.Session) error {
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
		c := Client{Name: name, Model: tr.Models[name], Concurrency: tr.Concurrency[name], Sessions: len(s.Times)}
		var err error
		if c.Concurrency == 0 {
			if c.Arrivals, err = Arrivals(s.Times, opt); err != nil {
				return nil, fmt.Errorf("client %q: %w", name, err)
			}
		} else if s.Episodes.Multi > 0 {
			e, err := FitEpisodes(s.Episodes)
			if err != nil {
				return nil, fmt.Errorf("client %q: %w", name, err)
			}
			c.Episodes = &e
		}
		if c.Lengths, err = Lengths(s.In, s.Out); err != nil {
			return nil, fmt.Errorf("client %q: %w", name, err)
		}
		clients = append(clients, c)
	}
	return clients, nil
}
