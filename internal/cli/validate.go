package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"surge/spec"
)

func newValidate() *cobra.Command {
	return &cobra.Command{
		Use:   "validate SPEC...",
		Short: "Check workload specs and list every mistake with its line and column",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{fmt.Errorf("validate: give at least one spec file (usage: %s)", c.UseLine())}
			}
			return nil
		},
		RunE: runValidate,
	}
}

func runValidate(c *cobra.Command, args []string) error {
	failed := 0
	for _, path := range args {
		s, err := validateOne(c, path)
		if err != nil {
			failed++
			printSpecErrors(c, path, err)
			continue
		}
		printWarnings(c, s.Warnings)
		n, w := len(s.Clients), len(s.Warnings)
		if w > 0 {
			fmt.Fprintf(c.OutOrStdout(), "%s: ok (%d client%s, %d warning%s)\n", path, n, plural(n), w, plural(w))
			continue
		}
		fmt.Fprintf(c.OutOrStdout(), "%s: ok (%d client%s)\n", path, n, plural(n))
	}
	if failed > 0 {
		return usageError{silentError{fmt.Errorf("%d of %d specs invalid", failed, len(args))}}
	}
	return nil
}

// validateOne parses a spec and loads its tokenizer.
func validateOne(c *cobra.Command, path string) (*spec.Spec, error) {
	s, err := loadSpec(path, c.InOrStdin())
	if err != nil {
		return nil, err
	}
	if _, _, err := openContent(path, s); err != nil {
		return nil, err
	}
	return s, nil
}

// printWarnings writes each of a spec's warnings on its own line, as
// "file:line:col: warning: path: message".
func printWarnings(c *cobra.Command, ws spec.Errors) {
	for _, w := range ws {
		fmt.Fprintln(c.ErrOrStderr(), w.Warning())
	}
}

// specFailure reports a failure to load the workload at path: a spec's
// problems one per line with their positions, anything else as it is.
func specFailure(c *cobra.Command, path string, err error) error {
	var list spec.Errors
	if !errors.As(err, &list) {
		return err
	}
	printSpecErrors(c, path, err)
	return silentError{err}
}

// printSpecErrors writes each problem of a spec on its own line.
func printSpecErrors(c *cobra.Command, path string, err error) {
	var list spec.Errors
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(c.ErrOrStderr(), e)
		}
		fmt.Fprintf(c.ErrOrStderr(), "%s: %d problem%s\n", path, len(list), plural(len(list)))
		return
	}
	fmt.Fprintf(c.ErrOrStderr(), "%s: %v\n", path, err)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
