// Command surge generates workloads for LLM inference servers, drives them
// against an endpoint or the built-in engine, and reports what happened.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"surge/internal/cli"
)

func main() {
	setMemoryLimit()
	ctx, cancel := context.WithCancel(context.Background())
	// The first interrupt stops the run, which still writes its records,
	// report and manifest; a second within signalGrace is the same
	// request again, and a later one ends surge at once.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go onSignals(sigs, cancel, os.Exit, signalGrace)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	signal.Stop(sigs)
	os.Exit(code)
}
