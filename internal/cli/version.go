package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"surge/bundle"
)

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print surge's version, commit and Go version",
		Args:  exactArgs(0),
		RunE: func(c *cobra.Command, _ []string) error {
			fmt.Fprintln(c.OutOrStdout(), versionString())
			return nil
		},
	}
}

// versionString describes this binary (bundle.ThisTool).
func versionString() string { return bundle.ThisTool() }
