package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"surge/content"
	"surge/trace"
	"surge/trace/importers"
)

// clientLister is a source naming the clients of its sessions as it
// reads them (BurstGPT, and generic traces).
type clientLister interface {
	Clients() []string
}

// listClients reads the files once to find their clients, for the
// trace's header: a client per model and log type (BurstGPT), per client
// field (csv, jsonl), or per file.
func listClients(paths []string, format importers.Format, f importFlags) ([]string, error) {
	rf, err := openRequests(paths, format, f)
	if err != nil {
		return nil, err
	}
	defer rf.close()
	if _, err := importers.Observe(rf.source()); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	var names []string
	for _, st := range rf.streams {
		names = append(names, st.(clientLister).Clients()...)
	}
	return names, nil
}

// importShareGPT writes a trace of the ShareGPT conversations of one
// file, with their text, tokens counted in --tokenizer: open loop at
// --rate (Poisson, or evenly spaced with --arrivals even), or closed loop,
// --concurrency at a time, without a rate.
func importShareGPT(c *cobra.Command, paths []string, f importFlags, shape importers.Reshape) error {
	switch {
	case len(paths) > 1:
		return usageError{fmt.Errorf("sharegpt: give one file, not %d", len(paths))}
	case f.window != "":
		return usageError{errors.New("--window does not apply to sharegpt, which records no times")}
	case f.arrivals != "poisson" && f.arrivals != "even":
		return usageError{fmt.Errorf("--arrivals %q: want poisson or even", f.arrivals)}
	case f.think < 0:
		return usageError{fmt.Errorf("--think %v: want a duration ≥ 0", f.think)}
	}
	tok, err := content.Open(f.tokenizer)
	if err != nil {
		return usageError{fmt.Errorf("--tokenizer: %w", err)}
	}
	file, err := os.Open(paths[0])
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer file.Close()
	client := pick(f.client, "sharegpt")
	sg, err := importers.NewShareGPT(file, importers.ShareGPTOptions{
		Options: importers.Options{Name: paths[0], Client: client, Model: f.model, SkipBad: f.skipBad},
		Count:   func(s string) int { return len(tok.Encode(s)) },
		Rate:    f.rate, Even: f.arrivals == "even", Seed: f.seed,
		Think: time.Duration(float64(f.think) / f.speed), MaxContext: f.maxContext,
	})
	if err != nil {
		return usageError{err}
	}
	// --rate paces the conversations and --speed divides --think; the
	// context cap ends conversations whole turns early, keeping text.
	shape.Scale, shape.MaxContext = 1, 0
	info := trace.ClientInfo{Name: client, Model: f.model, History: trace.HistoryPinned}
	if f.rate == 0 {
		info.Concurrency = f.concurrency
	}
	h := trace.Header{Name: "import:sharegpt", Tokenizer: tok.Name(), TokenizerHash: content.Fingerprint(tok),
		Text: true, Clients: []trace.ClientInfo{info}}
	n, span, hash, err := writeImport(c, f.out, h, drainInto(importers.NewReshaped(sg, shape)))
	if err != nil {
		return err
	}
	w := c.ErrOrStderr()
	fmt.Fprintf(w, "surge import: %d conversations from %s over %v, tokens in %s\n", n, paths[0], span, tok.Name())
	if sk := sg.Skipped(); sk.Rows > 0 {
		fmt.Fprintf(w, "  skipped %d malformed conversation%s, the first:\n", sk.Rows, plural(sk.Rows))
		for _, e := range sk.First {
			fmt.Fprintf(w, "    %v\n", e)
		}
	}
	if k := sg.Truncated(); k > 0 {
		fmt.Fprintf(w, "  cut %d conversation%s short (a broken human/gpt alternation, an empty message or --max-context)\n", k, plural(k))
	}
	if k := sg.Dropped(); k > 0 {
		fmt.Fprintf(w, "  left out %d conversation%s whose first turn exceeds --max-context %d\n", k, plural(k), f.maxContext)
	}
	fmt.Fprintf(w, "workload %s\n", hash)
	return nil
}
