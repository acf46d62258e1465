package importers

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"surge/trace"
)

// azureCSV is an Azure CSV of rows.
func azureCSV(rows ...string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("TIMESTAMP,ContextTokens,GeneratedTokens\n" + strings.Join(rows, "\n") + "\n")}
}

// fiveRequests is five requests at 0 to 4 s of 100 input and 10 output
// tokens, the second of 900 input.
var fiveRequests = azureCSV(
	"2024-05-10 00:00:00+00:00,100,10", "2024-05-10 00:00:01+00:00,900,10", "2024-05-10 00:00:02+00:00,100,10",
	"2024-05-10 00:00:03+00:00,100,10", "2024-05-10 00:00:04+00:00,100,10")

// readTrace reads a trace Import wrote.
func readTrace(t *testing.T, data []byte) (trace.Header, []*trace.Session) {
	t.Helper()
	tr, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var ss []*trace.Session
	for {
		s, err := tr.Read()
		if errors.Is(err, io.EOF) {
			return tr.Header, ss
		}
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
}

// TestImportReshape checks the replay options on fiveRequests: the
// offsets written, the second session's input, and the stats.
func TestImportReshape(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"five.csv": fiveRequests}
	tests := []struct {
		reason string
		opts   ImportOptions
		want   []int64 // start offsets, µs
		input  int     // of the second session kept
		span   time.Duration
		capped int
	}{
		{"as recorded", ImportOptions{}, []int64{0, 1e6, 2e6, 3e6, 4e6}, 900, 4 * time.Second, 0},
		{"window in seconds, twice as fast", ImportOptions{Reshape: Reshape{From: time.Second, To: 3 * time.Second}, Speed: 2},
			[]int64{0, 500000}, 100, 500 * time.Millisecond, 0},
		{"open window", ImportOptions{Reshape: Reshape{From: 2500 * time.Millisecond}}, []int64{500000, 1500000}, 100, 1500 * time.Millisecond, 0},
		{"mean rate 4/s keeps the shape", ImportOptions{Rate: 4}, []int64{0, 250000, 500000, 750000, 1e6}, 900, time.Second, 0},
		{"context cap", ImportOptions{Reshape: Reshape{MaxContext: 500}}, []int64{0, 1e6, 2e6, 3e6, 4e6}, 490, 4 * time.Second, 1},
	}
	for _, tt := range tests {
		tt.opts.Model = "m"
		var out bytes.Buffer
		st, err := Import(context.Background(), &out, fsys, []string{"five.csv"}, tt.opts)
		if err != nil {
			t.Errorf("%s: %v", tt.reason, err)
			continue
		}
		h, ss := readTrace(t, out.Bytes())
		var got []int64
		for _, s := range ss {
			got = append(got, s.AtUS)
		}
		if !reflect.DeepEqual(got, tt.want) || ss[1].Turns[0].InputTokens != tt.input || h.Clients[0].Name != "five" || h.Clients[0].Model != "m" || ss[0].Model != "m" {
			t.Errorf("%s: starts %v, second input %d, clients %+v; want %v, %d, five of m", tt.reason, got, ss[1].Turns[0].InputTokens, h.Clients, tt.want, tt.input)
		}
		if st.Format != FormatAzure || st.Sessions != len(tt.want) || st.Span != tt.span || st.Capped != tt.capped || st.Hash == "" {
			t.Errorf("%s: stats %+v; want azure, %d sessions over %v, %d capped", tt.reason, st, len(tt.want), tt.span, tt.capped)
		}
	}
}

// TestImportSkipBad skips malformed and out-of-order rows, counting them
// per file, and without SkipBad stops at the first with a hint.
func TestImportSkipBad(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"bad.csv": azureCSV("2023-11-16 18:00:00,10,1", "2023-11-16 18:00:01,ten,1", "2023-11-16 17:00:00,10,1", "2023-11-16 18:00:02,10,1")}
	st, err := Import(context.Background(), io.Discard, fsys, []string{"bad.csv"}, ImportOptions{SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	sk := st.Files[0].Skipped
	if st.Sessions != 2 || sk.Rows != 2 || !strings.HasPrefix(sk.First[0].Error(), "bad.csv:3: input tokens") ||
		!strings.HasPrefix(sk.First[1].Error(), "bad.csv:4: arrival -1h0m0s is before the previous row's (line 2)") {
		t.Errorf("%d sessions, skipped %+v", st.Sessions, sk)
	}
	_, err = Import(context.Background(), io.Discard, fsys, []string{"bad.csv"}, ImportOptions{})
	if want := `import: bad.csv:3: input tokens "ten": want a whole number (--skip-bad skips such rows)`; err == nil || err.Error() != want {
		t.Errorf("without SkipBad: %v; want %s", err, want)
	}
}

// TestImportFiles checks what depends on the files together: client
// names, a client per BurstGPT model read in a first pass, detection
// across files, and the errors of a pass that keeps nothing.
func TestImportFiles(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"a/x.csv": fiveRequests,
		"b/x.csv": fiveRequests,
		"one.csv": azureCSV("2023-11-16 18:00:00,10,1"),
		"m.jsonl": {Data: []byte(`{"timestamp": 0, "input_length": 5, "output_length": 1, "hash_ids": [1]}` + "\n")},
		"burst.csv": {Data: []byte("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n" +
			"0,ChatGPT,10,5,15,Conversation log\n1,GPT-4,20,6,26,Conversation log\n2,ChatGPT,30,7,37,Conversation log\n")},
	}
	tests := []struct {
		reason  string
		names   []string
		opts    ImportOptions
		clients []string
		err     string
	}{
		{"a client per file, numbered", []string{"a/x.csv", "b/x.csv"}, ImportOptions{}, []string{"x", "x-2"}, ""},
		{"a client named, numbered", []string{"a/x.csv", "b/x.csv"}, ImportOptions{Client: "c"}, []string{"c-1", "c-2"}, ""},
		{"a client per model and log type", []string{"burst.csv"}, ImportOptions{}, []string{"chatgpt-conversation_log", "gpt-4-conversation_log"}, ""},
		{"mixed formats", []string{"one.csv", "m.jsonl"}, ImportOptions{}, nil, "import: m.jsonl is mooncake but one.csv is azure: import one format at a time"},
		{"a window past the end", []string{"one.csv"}, ImportOptions{Reshape: Reshape{From: time.Hour}}, nil, "import: no sessions to write: the window or sample kept none"},
		{"a rate of one request", []string{"one.csv"}, ImportOptions{Rate: 3}, nil, "the 1 sessions kept span no time"},
		{"a missing file", []string{"none.csv"}, ImportOptions{Format: FormatAzure}, nil, "import: open none.csv: file does not exist"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		_, err := Import(context.Background(), &out, fsys, tt.names, tt.opts)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || out.Len() > 0 {
				t.Errorf("%s: %v, %d bytes written; want %q and nothing written", tt.reason, err, out.Len(), tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.reason, err)
			continue
		}
		h, _ := readTrace(t, out.Bytes())
		var got []string
		for _, c := range h.Clients {
			got = append(got, c.Name)
		}
		if !reflect.DeepEqual(got, tt.clients) {
			t.Errorf("%s: clients %q, want %q", tt.reason, got, tt.clients)
		}
	}
}

// TestImportCanceled stops writing when the context is done.
func TestImportCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Import(ctx, io.Discard, fstest.MapFS{"five.csv": fiveRequests}, []string{"five.csv"}, ImportOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestOpenRequestsConversations refuses formats of conversations, which
// are not requests at offsets.
func TestOpenRequestsConversations(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"w.json": {Data: []byte(`{"id":"a","block_size":64,"hash_id_scope":"local","requests":[]}`)}}
	rq, err := OpenRequests(fsys, []string{"w.json"}, ImportOptions{})
	if err == nil {
		rq.Close()
		t.Fatal("a WEKA conversation opened as requests")
	}
	if want := "import: weka is not a trace of requests at offsets"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

// TestServeGenClients names ServeGen clients by model folder and chunk.
func TestServeGenClients(t *testing.T) {
	t.Parallel()
	got := serveGenClients([]string{"language/M-Large/chunk-78-trace.csv", "chunk-3-trace.csv"})
	if want := []string{"m-large.chunk-78", "chunk-3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
