package trace

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// header is a minimal trace header line.
const header = `{"surge_trace":2,"clients":[{"name":"x","model":"m"}]}` + "\n"

// TestReaderLimits checks that a line beyond any of the limits is refused
// with its line number and the field, before a later stage allocates or
// waits from the number.
func TestReaderLimits(t *testing.T) {
	t.Parallel()
	session := func(turns string) string {
		return `{"client":"x","index":0,"at_us":0,"model":"m","api":"chat","turns":[` + turns + "]}\n"
	}
	manyTurns := strings.Repeat(`{"input_tokens":1},`, MaxTurns) + `{"input_tokens":1}`
	tests := []struct {
		name, data, want string
	}{
		{"input_tokens 10^15 (makeslice panic in sim/virtual)", session(`{"input_tokens":1000000000000000}`), "trace line 2: session x/0: turn 0: input_tokens 1000000000000000: want 0 to 10000000"},
		{"input_tokens 10^11 (OOM)", session(`{"input_tokens":100000000000}`), "input_tokens 100000000000"},
		{"input_tokens 10^9 (OOM)", session(`{"input_tokens":1000000000}`), "input_tokens 1000000000"},
		{"negative input_tokens", session(`{"input_tokens":-1}`), "input_tokens -1"},
		{"output_tokens", session(`{"output_tokens":20000000}`), "output_tokens 20000000"},
		{"max_tokens", session(`{"max_tokens":20000000}`), "max_tokens 20000000"},
		{"system_tokens", session(`{"input_tokens":5,"system_tokens":99999999}`), "system_tokens 99999999"},
		{"block_tokens overflowing blocks × block_tokens", session(`{"input_tokens":1,"blocks":[[1,4]],"block_tokens":4611686018427387904}`), "block_tokens 4611686018427387904"},
		{"fault tokens (a prompt of that many words)", session(`{"fault":{"kind":"over_context","tokens":1000000000000}}`), "fault tokens 1000000000000"},
		{"fault after_us", session(`{"fault":{"kind":"cancel","after_us":9000000000000000000}}`), "fault after_us"},
		{"fault stall_us", session(`{"fault":{"kind":"stall","stall_us":-5}}`), "fault stall_us -5"},
		{"fault bytes_per_s", session(`{"fault":{"kind":"slow_reader","bytes_per_s":-5}}`), "bytes_per_s -5"},
		{"at_us of 31,700 years (run waited forever)", `{"client":"x","index":0,"at_us":1000000000000000000,"model":"m","api":"chat","turns":[{}]}` + "\n", "trace line 2: session x/0: at_us 1000000000000000000: want 0 to 31622400000000"},
		{"negative at_us", `{"client":"x","index":0,"at_us":-1,"model":"m","api":"chat","turns":[{}]}` + "\n", "at_us -1"},
		{"wait_us", session(`{"wait_us":40000000000000}`), "turn 0: wait_us 40000000000000"},
		{"copy", session(`{"copy":1.5}`), "turn 0: copy 1.5: want a fraction in [0, 1]"},
		{"deadline_us", `{"client":"x","index":0,"at_us":0,"deadline_us":40000000000000,"turns":[{}]}` + "\n", "deadline_us 40000000000000"},
		{"too many turns", session(manyTurns), "trace line 2: turns: more than 10000"},
		{"blocks expanding past the line's budget", session(strings.Repeat(fmt.Sprintf(`{"blocks":[[1,%d]]},`, maxBlocks/2), 2) + `{"blocks":[[1,2]]}`), "trace line 2: turn 2: the session's turns hold more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readAll(header + tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestHeaderLimits checks that a header beyond the limits is refused on
// line 1, by the reader and the writer.
func TestHeaderLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, header, want string
	}{
		{"concurrency of a billion goroutines", `{"surge_trace":2,"clients":[{"name":"x","concurrency":1000000000}]}`, `trace line 1: header: client "x": concurrency 1000000000`},
		{"negative concurrency", `{"surge_trace":2,"clients":[{"name":"x","concurrency":-1}]}`, "concurrency -1"},
		{"warmup", `{"surge_trace":2,"warmup_us":99999999999999999,"clients":[]}`, "warmup_us 99999999999999999"},
		{"fault window", `{"surge_trace":2,"fault_windows":[{"kind":"burst","at_us":1,"for_us":99999999999999999}]}`, "fault_windows[0]: for_us 99999999999999999"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readAll(tt.header + "\n")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("reading: got %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := NewWriter(io.Discard, Header{Clients: []ClientInfo{{Name: "x", Concurrency: MaxConcurrency + 1}}}); err == nil {
		t.Error("the writer wrote a header beyond the limits")
	}
}

// TestLimitsAtTheBounds checks that the largest values the limits allow
// are read, and that the writer refuses what the reader would.
func TestLimitsAtTheBounds(t *testing.T) {
	t.Parallel()
	at := fmt.Sprintf(`{"client":"x","index":0,"at_us":%d,"model":"m","api":"chat","turns":[{"input_tokens":%d,"output_tokens":%d,"wait_us":%d}]}`+"\n",
		maxOffsetUS, MaxTokens, MaxTokens, maxOffsetUS)
	if err := readAll(header + at); err != nil {
		t.Errorf("values at the limits: %v", err)
	}
	w, err := NewWriter(io.Discard, Header{})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Write(&Session{Client: "x", Turns: []Turn{{InputTokens: MaxTokens + 1}}})
	if err == nil || !strings.Contains(err.Error(), "session x/0: turn 0: input_tokens 10000001") {
		t.Errorf("writing a turn beyond MaxTokens: got %v", err)
	}
}

// TestHugeCountRefusedCheaply checks the acceptance case: a line with
// input_tokens 10^15 is refused having allocated little, counted in bytes
// rather than time, so that the test holds under any CPU load.
func TestHugeCountRefusedCheaply(t *testing.T) {
	data := header + `{"client":"x","index":0,"at_us":0,"model":"m","api":"chat","turns":[{"input_tokens":1000000000000000,"output_tokens":1}]}` + "\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := readAll(data)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "trace line 2") {
		t.Fatalf("got %v, want the line refused", err)
	}
	// The reader's 1 MB buffer and the line; 100 MB is the acceptance bound.
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("refusing the line allocated %d bytes; want at most 16 MB", got)
	}
}

// FuzzLimits checks the bounds on arbitrary numbers: a line is either
// refused, or every count and time in it is within the limits, and the
// writer writes it back to a line the reader accepts again.
func FuzzLimits(f *testing.F) {
	f.Add(int64(5), int64(3), int64(0), int64(0), int64(0), uint16(1))
	f.Add(int64(1e15), int64(1), int64(1e18), int64(-1), int64(1<<62), uint16(3))
	f.Add(int64(MaxTokens), int64(MaxTokens+1), maxOffsetUS, maxOffsetUS+1, int64(16), uint16(2))
	f.Fuzz(func(t *testing.T, in, out, at, wait, blockTokens int64, turns uint16) {
		turn := fmt.Sprintf(`{"input_tokens":%d,"output_tokens":%d,"wait_us":%d,"block_tokens":%d,"blocks":[[1,1]]}`, in, out, wait, blockTokens)
		line := fmt.Sprintf(`{"client":"x","index":0,"at_us":%d,"turns":[%s]}`, at, strings.TrimSuffix(strings.Repeat(turn+",", int(turns%20)+1), ","))
		r, err := NewReader(strings.NewReader(header + line + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Read()
		if err != nil {
			if !strings.Contains(err.Error(), "trace line 2") {
				t.Fatalf("error without its line: %v", err)
			}
			return
		}
		if s.AtUS < 0 || s.AtUS > maxOffsetUS {
			t.Fatalf("accepted at_us %d", s.AtUS)
		}
		for _, tn := range s.Turns {
			if tn.InputTokens < 0 || tn.InputTokens > MaxTokens || tn.OutputTokens < 0 || tn.OutputTokens > MaxTokens ||
				tn.BlockTokens < 1 || tn.BlockTokens > tn.InputTokens || tn.WaitUS < 0 || tn.WaitUS > maxOffsetUS {
				t.Fatalf("accepted turn %+v", tn)
			}
		}
		w, err := NewWriter(io.Discard, r.Header)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(s); err != nil {
			t.Fatalf("the writer refuses what the reader accepted: %v", err)
		}
	})
}
