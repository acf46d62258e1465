package selftest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"time"
)

// processWait bounds how long StartProcess waits for its server process
// to say where it listens, and then to end once stopped.
const processWait = 10 * time.Second

// StartProcess starts cmd, a surge process that runs ServeProcess, and
// returns the URL it listens on and a function that stops it. The server
// stops when its stdin closes, so it ends with this process however that
// ends. cmd's Stdin, Stdout and Stderr must be unset.
func StartProcess(ctx context.Context, cmd *exec.Cmd) (string, func(), error) {
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.WaitDelay = processWait
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
		case <-time.After(processWait):
			cmd.Process.Kill()
			<-done
		}
	}
	url, err := ListeningOn(ctx, stdout)
	if err != nil {
		stop()
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return "", nil, fmt.Errorf("the server process: %w", err)
	}
	return url, stop, nil
}

// ListeningOn reads r until a line "listening on URL ..." (as
// ServeProcess and surge serve print) and returns URL, then discards the
// rest of r. It fails when r ends first, after a while, or when ctx ends.
func ListeningOn(ctx context.Context, r io.Reader) (string, error) {
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
	case <-time.After(processWait):
		return "", fmt.Errorf("did not say where it listens within %v", processWait)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ServeProcess is the server process of StartProcess: it serves the
// zero-delay server on a loopback port, says where on w, and stops when
// stdin ends or ctx does.
func ServeProcess(ctx context.Context, w io.Writer, stdin io.Reader) error {
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
	return Serve(ctx, ln, 0)
}
