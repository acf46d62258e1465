package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"surge/driver"
	"surge/internal/exporter"
	"surge/trace"
)

// serveLive serves surge's own metrics of the run d makes at addr's
// /metrics until the returned function is called; with no addr it does
// nothing and returns a nil sink.
func serveLive(log io.Writer, addr string, d *driver.Driver, shard *trace.Shard) (driver.Sink, func(), error) {
	if addr == "" {
		return nil, func() {}, nil
	}
	label := ""
	if shard != nil {
		label = shard.String()
	}
	m := exporter.New(func() float64 { return float64(d.Progress().InFlight) }, label)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, ConfigError{fmt.Errorf("--metrics-addr: %w", err)}
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(log, "surge: serving live metrics: %v\n", err)
		}
	}()
	fmt.Fprintf(log, "surge: live metrics at http://%s/metrics\n", ln.Addr())
	return m, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}, nil
}
