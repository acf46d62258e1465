package bundle

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// ThisTool describes the running binary from its embedded build
// information, as a manifest records it: "surge VERSION commit COMMIT[+dirty]
// GO-VERSION OS/ARCH".
func ThisTool() string {
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
