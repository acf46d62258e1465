package bundle

import (
	"runtime"
	"strings"
	"testing"
)

func TestThisTool(t *testing.T) {
	t.Parallel()
	got := ThisTool()
	if !strings.HasPrefix(got, "surge ") || !strings.Contains(got, " commit ") || !strings.HasSuffix(got, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("ThisTool() = %q, want surge VERSION commit COMMIT GO OS/ARCH", got)
	}
}
