package fit

import (
	"fmt"
	"io"

	"surge/trace"
)

// Add adds session s to the sample: its start and every request's
// lengths.
func (fs *Sample) Add(s *trace.Session) {
	fs.Times = append(fs.Times, float64(s.AtUS)/1e6)
	for _, t := range s.Turns {
		fs.In = append(fs.In, float64(t.InputTokens))
		fs.Out = append(fs.Out, float64(t.OutputTokens))
	}
}

// Traffic is a trace's sessions as a sample per client.
type Traffic struct {
	// Order lists the clients in the order their first sessions came.
	Order []string
	// Samples and Models are each client's sample and the model of its
	// first session.
	Samples map[string]*Sample
	Models  map[string]string
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

// Clients fits each client of tr, in order: its arrivals and lengths, and
// with flat its mean rate instead of its rate curve.
func Clients(tr *Traffic, flat bool) ([]Client, error) {
	var clients []Client
	for _, name := range tr.Order {
		s := tr.Samples[name]
		arr, err := Arrivals(s.Times, ArrivalOptions{})
		if err != nil {
			return nil, fmt.Errorf("client %q: %w", name, err)
		}
		lens, err := Lengths(s.In, s.Out)
		if err != nil {
			return nil, fmt.Errorf("client %q: %w", name, err)
		}
		clients = append(clients, Client{Name: name, Model: tr.Models[name], Arrivals: arr, Lengths: lens, Flat: flat})
	}
	return clients, nil
}
