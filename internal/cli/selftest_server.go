package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"surge/internal/selftest"
)

// zeroServerWait bounds how long selftest waits for its server process
// to say where it listens.
const zeroServerWait = 10 * time.Second

// startZeroServer starts this executable as selftest's zero-delay server
// (selftest --zero-server) and returns its URL and a function that stops
// it. The server stops when its stdin closes, so it ends with this
// process however that ends.
func startZeroServer(ctx context.Context) (string, func(), error) {
	if testing.Testing() {
		// The executable is a test binary, which would run its tests.
		return "", nil, errors.New("no surge executable under go test")
	}
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("finding surge's executable to start the server: %w", err)
	}
	cmd := exec.Command(exe, "selftest", "--zero-server")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.WaitDelay = zeroServerWait
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, fmt.Errorf("starting the server process: %w", err)
	}
	// Through a pipe of our own rather than StdoutPipe, so that Wait may
	// run while the output is still being read.
	stdout, pw := io.Pipe()
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("starting the server process: %w", err)
	}
	stop := func() {
		stdin.Close()
		done := make(chan struct{})
		go func() {
			cmd.Wait()
			pw.Close()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(zeroServerWait):
			cmd.Process.Kill()
			<-done
		}
	}
	url, err := listeningOn(ctx, stdout)
	if err != nil {
		stop()
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return "", nil, fmt.Errorf("the server process: %w", err)
	}
	return url, stop, nil
}

// listeningOn reads r until a line "listening on URL ..." (as selftest
// --zero-server and serve print) and returns URL, then discards the rest
// of r.
func listeningOn(ctx context.Context, r io.Reader) (string, error) {
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "listening on "); ok && rest != "" {
				found <- strings.Fields(rest)[0]
				break
			}
		}
		close(found)
		io.Copy(io.Discard, r)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			return "", errors.New("ended without saying where it listens")
		}
		return url, nil
	case <-time.After(zeroServerWait):
		return "", fmt.Errorf("did not say where it listens within %v", zeroServerWait)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// serveZero is selftest --zero-server: it serves the zero-delay server
// on a loopback port, says where on w, and stops when stdin closes or ctx
// ends.
func serveZero(ctx context.Context, w io.Writer, stdin io.Reader) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("starting the zero-delay server: %w", err)
	}
	fmt.Fprintf(w, "listening on http://%s\n", ln.Addr())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		io.Copy(io.Discard, stdin)
		cancel()
	}()
	return selftest.Serve(ctx, ln, 0)
}
