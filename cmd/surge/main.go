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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first interrupt, restore the default handling so a
		// second Ctrl-C ends surge at once.
		<-ctx.Done()
		stop()
	}()
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
