package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

// setRootHelp makes root's help its Long (the verbs in pipeline order)
// and its flags, instead of cobra's alphabetical list of commands; every
// verb keeps cobra's help.
func setRootHelp(root *cobra.Command) {
	verbHelp := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c != root {
			verbHelp(c, args)
			return
		}
		fmt.Fprintf(c.OutOrStdout(), "%s\n\nUsage:\n  %s VERB [flags]\n\nFlags:\n%s", c.Long, c.Name(), c.LocalFlags().FlagUsages())
	})
}
