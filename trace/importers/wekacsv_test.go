package importers

import (
	"encoding/csv"
	"os"
	"strconv"
	"strings"
	"testing"

	"surge/trace"
)

const wekaCSVPath = "../../../shared/traces/weka-agentic/weka_agentic_requests.csv"

// importWEKACSV imports the flattened WEKA requests file.
func importWEKACSV(t testing.TB) []*trace.Session {
	t.Helper()
	f, err := os.Open(wekaCSVPath)
	if err != nil {
		t.Skipf("no WEKA requests CSV: %v", err)
	}
	defer f.Close()
	var ss []*trace.Session
	err = WEKARequests(f, "weka", WEKAOptions{}, func(s *trace.Session) error {
		ss = append(ss, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// TestWEKARequestsFile imports the 710 conversations of the flattened CSV
// and checks them against the rows: every request a turn with its tokens,
// blocks sharing with the stream's previous request exactly the prefix
// lcp_prev_blocks says, and each sub-agent stream forked after and joined
// into main-stream turns.
func TestWEKARequestsFile(t *testing.T) {
	t.Parallel()
	ss := importWEKACSV(t)
	f, _ := os.Open(wekaCSVPath)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	turns, in, lcp := 0, 0, 0
	for _, r := range rows[1:] { // in_tokens, n_blocks, lcp_prev_blocks are columns 6, 8, 9
		in, lcp = in+mustAtoi(r[6]), lcp+min(mustAtoi(r[9]), mustAtoi(r[8]))
	}
	gotIn, shared, forks := 0, 0, 0
	for _, s := range ss {
		turns += len(s.Turns)
		for _, tu := range s.Turns {
			gotIn += tu.InputTokens
			if len(tu.After) > 1 {
				forks++
			}
			if len(tu.After) > 0 {
				prev := s.Turns[tu.After[0]]
				n := 0
				for n < len(tu.Blocks) && n < len(prev.Blocks) && tu.Blocks[n] == prev.Blocks[n] {
					n++
				}
				shared += n
			}
		}
	}
	if len(ss) != 710 || turns != len(rows)-1 || gotIn != in {
		t.Errorf("%d sessions, %d turns, %d input tokens; the file has 710 conversations, %d requests, %d input tokens", len(ss), turns, gotIn, len(rows)-1, in)
	}
	if shared < lcp || forks == 0 {
		t.Errorf("%d blocks shared with the previous turn, the rows' lcp_prev_blocks sum to %d; %d joins", shared, lcp, forks)
	}
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestWEKARequestsErrors checks malformed files are refused with the line.
func TestWEKARequestsErrors(t *testing.T) {
	t.Parallel()
	head := "trace_id,stream,req_idx,t_s,type,model,in_tokens,out_tokens,n_blocks,lcp_prev_blocks,seen_blocks,api_time_s,think_time_s,stop,input_types\n"
	tests := []struct{ reason, data, want string }{
		{"missing columns", "trace_id,stream\n", "header lacks columns req_idx"},
		{"bad number", head + "a,main,0,x,n,m,100,5,1,0,0,1,0,end,text\n", "line 2: t_s \"x\""},
		{"blocks past the input", head + "a,main,0,0,n,m,100,5,2,0,0,1,0,end,text\n", "line 2: in_tokens 100 with 2 blocks"},
		{"no main stream", head + "a,main/agent_001,0,0,n,m,100,5,1,0,0,1,0,end,text\n", "has no main stream"},
	}
	for _, tt := range tests {
		err := WEKARequests(strings.NewReader(tt.data), "w", WEKAOptions{}, func(*trace.Session) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.reason, err, tt.want)
		}
	}
}

// FuzzWEKARequests checks that no CSV makes the flattened WEKA importer
// panic, and that every session it emits is valid.
func FuzzWEKARequests(f *testing.F) {
	head := "trace_id,stream,req_idx,t_s,type,model,in_tokens,out_tokens,n_blocks,lcp_prev_blocks,seen_blocks,api_time_s,think_time_s,stop,input_types\n"
	f.Add(head + "a,main,0,0,n,m,100,5,1,0,0,1,0,end,text\na,main,1,3,n,m,200,5,3,1,1,,2,end,text\na,main/agent_001,0,0,n,m,90,4,1,0,0,2,0,end,text\n")
	f.Fuzz(func(t *testing.T, data string) {
		WEKARequests(strings.NewReader(data), "w", WEKAOptions{Speed: 2}, func(s *trace.Session) error {
			if err := s.Validate(); err != nil {
				t.Fatalf("emitted an invalid session: %v", err)
			}
			return nil
		})
	})
}
