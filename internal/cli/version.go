package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
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

// versionString describes this binary from its embedded build information.
func versionString() string {
	version, commit, modified := "(devel)", "unknown", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = "+dirty"
				}
			}
		}
	}
	return fmt.Sprintf("surge %s commit %s%s %s %s/%s", version, commit, modified, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
