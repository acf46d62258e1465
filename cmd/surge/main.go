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
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
