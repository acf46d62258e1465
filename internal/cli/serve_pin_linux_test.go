package cli

import (
	"os/exec"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinned returns the command bin args, run on the i-th CPU this process
// may use alone, when taskset is installed and there are two such CPUs or
// more.
func pinned(i int, bin string, args ...string) *exec.Cmd {
	var set unix.CPUSet
	ts, err := exec.LookPath("taskset")
	if err != nil || unix.SchedGetaffinity(0, &set) != nil || set.Count() < 2 {
		return exec.Command(bin, args...)
	}
	for cpu := 0; ; cpu++ {
		if set.IsSet(cpu) {
			if i == 0 {
				return exec.Command(ts, append([]string{"-c", strconv.Itoa(cpu), bin}, args...)...)
			}
			i--
		}
	}
}
