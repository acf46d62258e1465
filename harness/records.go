package harness

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"surge/bundle"
	"surge/driver"
	"surge/internal/selftest"
	"surge/trace"
)

// recordsPath is the records file of the bundle in dir.
func recordsPath(dir string) string { return filepath.Join(dir, bundle.RecordsFile) }

// record runs the driver, streaming records to DIR/records.jsonl under
// header h (whose Start is the run's start) and to also, when set, with
// a progress line on progress, when set.
func record(ctx context.Context, progress io.Writer, d *driver.Driver, h trace.RunHeader, dir string, also driver.Sink) (trace.RunEnd, error) {
	file, err := os.Create(recordsPath(dir))
	if err != nil {
		return trace.RunEnd{}, fmt.Errorf("creating records file: %w", err)
	}
	defer file.Close()
	rw, err := trace.NewRecordWriter(file, h)
	if err != nil {
		return trace.RunEnd{}, err
	}
	stopProgress := showProgress(progress, d)
	cpu0, cpuErr := selftest.ReadCPU()
	end, err := d.Run(ctx, h.Start, sinkOf(rw, also))
	stopProgress()
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

// showProgress prints a live progress line to w while a run goes, when w
// is set; it returns a function that stops it.
func showProgress(w io.Writer, d *driver.Driver) func() {
	if w == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				fmt.Fprint(w, "\r\033[K")
				return
			case <-tick.C:
				fmt.Fprint(w, "\r\033[K"+progressLine(d.Progress()))
			}
		}
	}()
	return func() { cancel(); <-done }
}

func progressLine(p driver.Progress) string {
	return fmt.Sprintf("%6.1fs  sent %d  in flight %d  rate %.1f/s (target %.1f/s)  errors %d  p50 TTFT %v",
		p.Elapsed.Seconds(), p.Sent, p.InFlight, p.AchievedRate, p.TargetRate, p.Errors, p.TTFTp50.Round(time.Millisecond))
}
