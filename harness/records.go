package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"surge/bundle"
	"surge/driver"
	"surge/internal/selftest"
	"surge/trace"
)

// recordsPath is the records file of the bundle in dir.
func recordsPath(dir string) string { return filepath.Join(dir, bundle.RecordsFile) }

// createRecords opens where a run's records go: the records file of
// cfg.Dir, or without a Dir cfg.Records, a copy kept in cfg.kept for the
// reports to read back.
func createRecords(cfg *Config) (io.WriteCloser, error) {
	if cfg.Dir == "" {
		cfg.kept = new(bytes.Buffer)
		return nopCloser{io.MultiWriter(cfg.Records, cfg.kept)}, nil
	}
	f, err := os.Create(recordsPath(cfg.Dir))
	if err != nil {
		return nil, fmt.Errorf("creating records file: %w", err)
	}
	return f, nil
}

// nopCloser is a writer whose Close does nothing: the caller's writer
// is the caller's to close.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// record runs the driver, streaming records to createRecords's writer
// under header h (whose Start is the run's start) and to also,
// when set, showing progress as cfg asks and stopping early as
// cfg.MaxErrorRate asks.
func record(ctx context.Context, cfg *Config, d *driver.Driver, h trace.RunHeader, also driver.Sink) (trace.RunEnd, error) {
	file, err := createRecords(cfg)
	if err != nil {
		return trace.RunEnd{}, err
	}
	defer file.Close()
	rw, err := trace.NewRecordWriter(file, h)
	if err != nil {
		return trace.RunEnd{}, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	abort := &aborter{max: cfg.MaxErrorRate, cancel: cancel}
	stopProgress := showProgress(cfg, d)
	cpu0, cpuErr := selftest.ReadCPU()
	end, err := d.Run(ctx, h.Start, sinkOf(rw, abort.sink(also)))
	stopProgress()
	end.Aborted = abort.reason
	if err != nil {
		return end, fmt.Errorf("run: %w", err)
	}
	if cpu1, err := selftest.ReadCPU(); err == nil && cpuErr == nil {
		end.ClientCPUUS = cpu1.Sub(cpu0).Total().Microseconds()
		end.ClientCPUs = runtime.GOMAXPROCS(0)
	}
	if err := rw.Close(end); err != nil {
		return end, fmt.Errorf("writing records: %w", err)
	}
	return end, file.Close()
}

// sinkOf is rw, writing to also too when it is set.
func sinkOf(rw driver.Sink, also driver.Sink) driver.Sink {
	if also == nil {
		return rw
	}
	return tee{rw, also}
}

// tee writes each record to both of its sinks.
type tee [2]driver.Sink

func (t tee) Write(r *trace.Record) error {
	if err := t[0].Write(r); err != nil {
		return err
	}
	return t[1].Write(r)
}

// keep is a sink that keeps the records written to it, their gaps
// packed (a quarter of the memory; the report reads them the same), in
// chunks of keepChunk, so that millions of records grow without copying
// the ones kept.
type keep struct {
	chunks [][]trace.Record
	n      int
}

// keepChunk is the records of one of keep's chunks.
const keepChunk = 1 << 14

func (k *keep) Write(r *trace.Record) error {
	if len(k.chunks) == 0 || len(k.chunks[len(k.chunks)-1]) == keepChunk {
		k.chunks = append(k.chunks, make([]trace.Record, 0, keepChunk))
	}
	last := &k.chunks[len(k.chunks)-1]
	*last = append(*last, *r)
	(*last)[len(*last)-1].Pack()
	k.n++
	return nil
}

// all moves the kept records into one slice, freeing each chunk once
// copied, so that they take their own memory and one chunk's at most.
func (k *keep) all() []trace.Record {
	recs := make([]trace.Record, 0, k.n)
	for i, c := range k.chunks {
		recs = append(recs, c...)
		k.chunks[i] = nil
	}
	k.chunks, k.n = nil, 0
	return recs
}

// records are the kept records under header h and end line end, as a
// records file of them reads back: h and end pass through JSON, as
// they would (a time's location, the format version), the records need
// not (integers and strings only).
func (k *keep) records(h trace.RunHeader, end trace.RunEnd) (*trace.Records, error) {
	rs := &trace.Records{Records: k.all(), End: &trace.RunEnd{}}
	h.Format = trace.RecordsFormat
	for _, v := range []struct{ in, out any }{{h, &rs.Header}, {end, rs.End}} {
		b, err := json.Marshal(v.in)
		if err == nil {
			err = json.Unmarshal(b, v.out)
		}
		if err != nil {
			return nil, fmt.Errorf("keeping the records: %w", err)
		}
	}
	return rs, nil
}
