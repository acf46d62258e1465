package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"slices"
	"time"
)

// stampRun is the reference for surge's measurement overhead: n requests
// at a constant rate, one at a time, each read until its first token,
// whose text bench/zeroserver -stamp sets to its clock just before the
// write. It prints the medians of now − stamp at the first read that
// holds the stamp: the least any Go client reading through net/http can
// see.
func stampRun(tr *http.Transport, url string, body []byte, rate float64, n int) {
	period := time.Duration(float64(time.Second) / rate)
	buf := make([]byte, 16<<10)
	over := make([]int64, 0, n)
	next := time.Now()
	for range n {
		next = next.Add(period)
		time.Sleep(time.Until(next))
		d, err := firstStamp(tr, url, body, buf)
		if err != nil {
			log.Fatal(err)
		}
		over = append(over, d)
	}
	slices.Sort(over)
	q := func(p float64) int64 { return over[int(p*float64(len(over)-1))] }
	fmt.Printf("minclient stamp rate=%g n=%d\n  measure_us p50 %d p99 %d max %d n %d\n", rate, n, q(0.5), q(0.99), over[len(over)-1], len(over))
}

// firstStamp sends one request, reads its body to the end, and returns
// the µs from the stamp to the read that brought it.
func firstStamp(tr *http.Transport, url string, body, buf []byte) (int64, error) {
	resp, err := post(context.Background(), tr, url, body)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var over int64 = -1
	for {
		k, err := resp.Body.Read(buf)
		if over < 0 && k > 0 {
			now := time.Now().UnixNano()
			if at, ok := findStamp(buf[:k]); ok {
				over = (now - at) / 1000
			}
		}
		if err == io.EOF {
			if over < 0 {
				return 0, fmt.Errorf("no stamp in the response: is the server zeroserver -stamp?")
			}
			return over, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// findStamp returns the Unix nanoseconds of the first "t" followed by 19
// digits in b.
func findStamp(b []byte) (int64, bool) {
	for i := bytes.IndexByte(b, 't'); i >= 0 && i+20 <= len(b); {
		var v int64
		ok := true
		for _, c := range b[i+1 : i+20] {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			v = v*10 + int64(c-'0')
		}
		if ok {
			return v, true
		}
		j := bytes.IndexByte(b[i+1:], 't')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return 0, false
}
