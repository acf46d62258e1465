package importers

import (
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

const summaryHead = "trace_id,models,block_size,tool_tokens,system_tokens,n_requests,n_main_requests,n_streams,first_in,last_in,duration_s,file_bytes\n"

// TestWEKASummaries expands summaries into sessions: prompts grown evenly
// from first to last, the previous prompt's blocks kept, even waits, a
// conversation ending shorter reset at its last turn, models kept as
// listed, and sub-agent streams counted and left out.
func TestWEKASummaries(t *testing.T) {
	t.Parallel()
	in := summaryHead +
		"t1,m-a,64,10,20,5,5,1,1000,1400,40.0,9\n" +
		"t2,m-a|m-b,64,10,20,9,3,3,5000,2000,10,9\n" +
		"t3,m-b,16,0,0,1,1,1,33,33,0,9\n"
	var got []*trace.Session
	st, err := WEKASummaries(strings.NewReader(in), "c", SummaryOptions{Speed: 2, Output: 50}, func(s *trace.Session) error {
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || st.Subagents != 2 || st.SubRequests != 6 {
		t.Fatalf("%d sessions, %+v; want 3, 2 sub-agents of 6 requests", len(got), st)
	}
	prompts := func(s *trace.Session) []int {
		var p []int
		for _, t := range s.Turns {
			p = append(p, t.InputTokens)
		}
		return p
	}
	if p := prompts(got[0]); !slices.Equal(p, []int{1000, 1100, 1200, 1300, 1400}) {
		t.Errorf("t1 prompts %v; want 1000 to 1400 by 100", p)
	}
	if p := prompts(got[1]); !slices.Equal(p, []int{5000, 5000, 2000}) || got[1].Model != "m-a|m-b" {
		t.Errorf("t2 prompts %v, model %q; want 5000, 5000, 2000 and both models", p, got[1].Model)
	}
	s := got[0]
	for k, turn := range s.Turns {
		if turn.OutputTokens != 50 || len(turn.Blocks) != turn.InputTokens/64 {
			t.Errorf("t1 turn %d: output %d, %d blocks; want 50 and %d", k, turn.OutputTokens, len(turn.Blocks), turn.InputTokens/64)
		}
		if k == 0 {
			continue
		}
		prev := s.Turns[k-1].Blocks
		if !slices.Equal(turn.Blocks[:len(prev)], prev) || turn.WaitUS != 5_000_000 || !slices.Equal(turn.After, []int{k - 1}) {
			t.Errorf("t1 turn %d: blocks share %v of %v, wait %d µs, after %v; want the previous prompt's blocks, 5 s (40 s over 4 waits, at speed 2), after %d",
				k, turn.Blocks, prev, turn.WaitUS, turn.After, k-1)
		}
	}
	if err := got[2].Validate(); err != nil || len(got[2].Turns) != 1 || len(got[2].Turns[0].Blocks) != 2 {
		t.Errorf("t3: %v, %d turns; want one valid turn of 2 blocks of 16", err, len(got[2].Turns))
	}
}

// TestWEKASummariesErrors names the line and the field of a bad row.
func TestWEKASummariesErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, in, want string }{
		{"columns", "trace_id,models\n", "header lacks columns block_size, n_requests"},
		{"count", summaryHead + "t1,m,64,1,1,x,5,1,10,20,1,1\n", `line 2: n_requests "x": want a whole number ≥ 1`},
		{"steps", summaryHead + "t1,m,64,1,1,2,5,1,10,20,1,1\n", "line 2: n_main_requests 5 above n_requests 2"},
		{"duration", summaryHead + "t1,m,64,1,1,5,5,1,10,20,-1,1\n", `line 2: duration_s "-1": want seconds ≥ 0`},
		{"ragged", summaryHead + "t1,m\n", "wrong number of fields"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := WEKASummaries(strings.NewReader(tt.in), "c", SummaryOptions{Output: 1}, func(*trace.Session) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v; want it to contain %q", err, tt.want)
			}
			if _, err := SummaryAnswers(strings.NewReader(tt.in)); err == nil {
				t.Errorf("SummaryAnswers read a bad file without an error")
			}
		})
	}
}

// TestSummaryAnswers chooses the answers' length: 256 tokens when the
// conversations grow by more a turn, else the growth of the later turn at
// 5%, counting each conversation's later turns.
func TestSummaryAnswers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		rows string
		want int
	}{
		{"all grow fast", "a,m,64,1,1,3,3,1,1000,3000,1,1\nb,m,64,1,1,2,2,1,100,900,1,1\n", 256},
		// 10 later turns at 50 a turn, 90 at 300: the turn at 5% grows by 50.
		{"a slow conversation of many turns", "a,m,64,1,1,11,11,1,1000,1500,1,1\nb,m,64,1,1,91,91,1,100,27100,1,1\n", 50},
		// 1 later turn of 100 at 10 (1%), 99 at 300: within the 5%.
		{"a slow one of few turns", "a,m,64,1,1,2,2,1,1000,1010,1,1\nb,m,64,1,1,100,100,1,100,29800,1,1\n", 256},
		{"shrinking conversations count as growing by 0, at least 1 token", "a,m,64,1,1,9,9,1,5000,100,1,1\n", 1},
		{"no later turns", "a,m,64,1,1,1,1,1,5000,5000,1,1\n", 256},
	} {
		got, err := SummaryAnswers(strings.NewReader(summaryHead + tt.rows))
		if err != nil || got != tt.want {
			t.Errorf("%s: %d, %v; want %d", tt.name, got, err, tt.want)
		}
	}
}
