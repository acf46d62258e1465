// Package cli is surge's command line: one file per verb over the library
// packages. Exit codes are decided here only.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"surge/harness"
	"surge/internal/redact"
	"surge/spec"
)

// Exit codes, each meaning one thing (README.md, "Exit codes").
const (
	exitOK = 0
	// exitFailure: the measured system failed an SLO, a gate or a
	// comparison, or no request succeeded (or anything unforeseen).
	exitFailure = 1
	exitUsage   = 2 // the command line or a spec is wrong
	// exitUnreachable: a target could not be reached or failed the
	// preflight, or a run stopped itself on its errors (--max-error-rate).
	exitUnreachable = 3
	// exitQuestionable: --fail-on-invalid, and the measurement itself was
	// questionable (a saturated client, miscounted tokens, …).
	exitQuestionable = 4
	// exitInterrupted follows the shell's 128+SIGINT: the run was stopped
	// by Ctrl-C, and what it saw was recorded and reported.
	exitInterrupted = 130
)

// errInterrupted marks a run stopped by Ctrl-C after recording everything.
var errInterrupted = silentError{errors.New("interrupted")}

// usageError marks an error in how surge was invoked.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// Main runs surge with args (without the program name) and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(context.WithValue(ctx, argsKey{}, args))
	if err == nil {
		return exitOK
	}
	var silent silentError
	if !errors.As(err, &silent) {
		fmt.Fprintf(stderr, "surge: %s\n", message(err))
	}
	return exitCode(err)
}

// maxMessageLine bounds each line of the error surge prints: a value
// quoted whole (a 1 MB salt, a target list) is cut and its length said.
const maxMessageLine = 2000

// message is err as surge prints it: each line clipped, and no user
// information in any URL it quotes.
func message(err error) string {
	return redact.ClipLines(redact.URL(err.Error()), maxMessageLine)
}

// exitCode is the exit code of a command that ended with err, by the
// types of the errors it wraps.
func exitCode(err error) int {
	var (
		usage        usageError
		config       harness.ConfigError
		invalid      spec.Errors
		unreachable  harness.UnreachableError
		aborted      harness.AbortedError
		questionable harness.QuestionableError
	)
	switch {
	case err == nil:
		return exitOK
	case err == errInterrupted:
		return exitInterrupted
	case errors.As(err, &usage), errors.As(err, &config), errors.As(err, &invalid), errors.Is(err, harness.ErrNoSLO):
		return exitUsage
	case errors.As(err, &unreachable), errors.As(err, &aborted):
		return exitUnreachable
	case errors.As(err, &questionable):
		return exitQuestionable
	}
	return exitFailure
}

// argsKey is the context key of the command line Main was given.
type argsKey struct{}

// commandLine is the command line of the running command, as a bundle
// records it: "surge" and the arguments Main was given.
func commandLine(ctx context.Context) []string {
	args, _ := ctx.Value(argsKey{}).([]string)
	return append([]string{"surge"}, args...)
}

// silentError is a failure the command has already explained on stderr.
type silentError struct{ error }

func (e silentError) Unwrap() error { return e.error }

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "surge",
		Short: "Realistic, reproducible load for LLM inference servers",
		Long: `surge turns a statistical description of traffic (a YAML spec) into a
deterministic trace, drives it against an OpenAI-compatible server or a
simulated one, and reports what happened. The verbs, in pipeline order:

  validate  check specs, listing every mistake
  gen       compile a spec and a seed into a trace
  inspect   summarise a trace, or check a run's bundle
  import    turn a public trace into a surge trace
  fit       fit a spec to a trace
  run       drive a workload against a server, or the built-in engine
  sim       run a workload through the built-in engine in virtual time
  sweep     run a workload at increasing loads: the throughput-latency curve
  report    summarise the records of runs, in text, JSON, CSV or HTML
  compare   say which differences between two runs are significant
  parity    check that servers answer alike before comparing their speed
  serve     serve a simulated model over HTTP in real time
  k8s       write Kubernetes manifests that run a workload as N shards
  selftest  measure the load surge itself can drive on this machine
  version   print surge's version

surge VERB --help gives a verb's flags and examples.`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w%s (see surge %s --help)", err, flagHint(c, err), c.Name())}
	})
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newValidate(), newGen(), newInspect(), newImport(), newFit(), newRun(), newSim(), newSweep(), newReport(), newCompare(), newParity(), newServe(), newK8s(), newSelftest(), newVersion())
	addExamples(root)
	setRootHelp(root)
	return root
}

// flagHint is "; did you mean --NAME?" when err is an unknown flag near
// one of c's, else "".
func flagHint(c *cobra.Command, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if near := spec.Closest(name, names); near != "" {
		return "; did you mean --" + near + "?"
	}
	return ""
}

// exactArgs is cobra.ExactArgs returning a usage error.
func exactArgs(n int) cobra.PositionalArgs { return usageArgs(cobra.ExactArgs(n)) }

// maxArgs is cobra.MaximumNArgs returning a usage error.
func maxArgs(n int) cobra.PositionalArgs { return usageArgs(cobra.MaximumNArgs(n)) }

// usageArgs is check returning a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return usageError{fmt.Errorf("%s: %w (usage: %s)", c.Name(), err, c.UseLine())}
		}
		return nil
	}
}
