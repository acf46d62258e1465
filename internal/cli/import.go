package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"surge/trace"
	"surge/trace/importers"
)

type importFlags struct {
	format      string
	out         string
	speed       float64
	concurrency int
	client      string
}

func newImport() *cobra.Command {
	var f importFlags
	c := &cobra.Command{
		Use:   "import FILE... --format weka",
		Short: "Turn a public trace into a surge trace, for replay and analysis",
		Long: `import reads the files of a public trace and writes a surge trace that
replays it: lengths as exact token counts, timing within a session as waits
between its requests, and prefix sharing as content blocks, so requests the
trace says share a prefix share it in the replay.

Formats:
  weka   the WEKA agentic traces (coding-agent conversations, one JSON file
         each): a session per conversation, run closed loop, --concurrency
         at a time (the files have no absolute start times); think times
         divided by --speed.

The trace holds content blocks, not text: surge sim and surge inspect take
it as it is.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runImport(c, args, f) },
	}
	fs := c.Flags()
	fs.StringVar(&f.format, "format", "weka", "format of the files: weka")
	fs.StringVarP(&f.out, "output", "o", "-", "trace file to write (- for stdout)")
	fs.Float64Var(&f.speed, "speed", 1, "divide think times by this (10: ten times faster)")
	fs.IntVar(&f.concurrency, "concurrency", 4, "sessions in flight when replayed")
	fs.StringVar(&f.client, "client", "weka", "client name of the imported sessions")
	return c
}

func runImport(c *cobra.Command, files []string, f importFlags) error {
	switch {
	case f.format != "weka":
		return usageError{fmt.Errorf("--format %q: the formats are weka", f.format)}
	case f.speed <= 0:
		return usageError{fmt.Errorf("--speed %g: want a positive factor", f.speed)}
	case f.concurrency < 1:
		return usageError{fmt.Errorf("--concurrency %d: want at least 1", f.concurrency)}
	}
	var sessions []*trace.Session
	for i, path := range files {
		s, err := importWEKA(path, f, i)
		if err != nil {
			return err
		}
		sessions = append(sessions, s)
	}
	h := trace.Header{Name: "import:" + f.format,
		Clients: []trace.ClientInfo{{Name: f.client, Model: sessions[0].Model, Concurrency: f.concurrency}}}
	out, commit, err := createOutput(c, f.out)
	if err != nil {
		return err
	}
	hash, err := writeSessions(out, h, sessions)
	if cerr := commit(err == nil); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	fmt.Fprintf(c.ErrOrStderr(), "surge import: %d sessions from %d files\nworkload %s\n", len(sessions), len(files), hash)
	return nil
}

// importWEKA reads one WEKA conversation file as session i.
func importWEKA(path string, f importFlags, i int) (*trace.Session, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	defer file.Close()
	s, err := importers.WEKA(file, f.client, i, importers.WEKAOptions{Speed: f.speed})
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	return s, nil
}

// writeSessions writes a trace of h and sessions to out and returns its
// workload hash.
func writeSessions(out interface{ Write([]byte) (int, error) }, h trace.Header, sessions []*trace.Session) (string, error) {
	tw, err := trace.NewWriter(out, h)
	if err != nil {
		return "", err
	}
	for _, s := range sessions {
		if err := tw.Write(s); err != nil {
			return "", err
		}
	}
	return tw.Close()
}
