package main

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// setMemoryLimit gives the garbage collector a soft limit of three
// quarters of the memory this process may use (the machine's, or its
// cgroup's when lower), unless GOMEMLIMIT sets one: a simulation of
// millions of requests keeps gigabytes of records for its report, and
// with the default GOGC alone the heap may grow to twice what is live.
// It returns the limit set, 0 for none.
func setMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	total := memTotal()
	if cg := cgroupLimit(); cg > 0 && (total == 0 || cg < total) {
		total = cg
	}
	if total <= 0 {
		return 0
	}
	limit := total / 4 * 3
	debug.SetMemoryLimit(limit)
	return limit
}

// memTotal is /proc/meminfo's MemTotal in bytes, 0 when unknown.
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("MemTotal:")); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(string(rest)), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit is the cgroup v2 memory.max of this process, 0 when there
// is none or it is unlimited.
func cgroupLimit() int64 {
	b, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0 // "max"
	}
	return n
}
