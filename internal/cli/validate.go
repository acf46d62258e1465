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
		n, err := validateOne(c, path)
		if err != nil {
			failed++
			printSpecErrors(c, path, err)
			continue
		}
		fmt.Fprintf(c.OutOrStdout(), "%s: ok (%d client%s)\n", path, n, plural(n))
	}
	if failed > 0 {
		return silentError{fmt.Errorf("%d of %d specs invalid", failed, len(args))}
	}
	return nil
}

// validateOne parses a spec and loads its tokenizer, returning its number
// of clients.
func validateOne(c *cobra.Command, path string) (int, error) {
	s, err := loadSpec(path, c.InOrStdin())
	if err != nil {
		return 0, err
	}
	if _, _, err := openContent(path, s); err != nil {
		return 0, err
	}
	return len(s.Clients), nil
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
