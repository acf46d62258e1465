package importers

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"surge/trace"
)

// TestParseColumns reads mappings and refuses bad ones, and String reads
// back.
func TestParseColumns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason, in string
		want       Columns
		err        string
	}{
		{"the three required", "at=t,input=i,output=o", Columns{At: "t", Input: "i", Output: "o"}, ""},
		{"all six, spaces trimmed, any order", "session = conv id,category=task,client=user,output=o,input=i,at=t", Columns{"t", "i", "o", "user", "conv id", "task"}, ""},
		{"missing output", "at=t,input=i", Columns{}, "want at least input= and output="},
		{"unknown key", "at=t,input=i,output=o,model=m", Columns{}, `"model": the keys are`},
		{"twice", "at=t,at=u,input=i,output=o", Columns{}, "at given twice"},
		{"no field", "at=,input=i,output=o", Columns{}, `"at=": want KEY=FIELD`},
		{"empty", "", Columns{}, "want KEY=FIELD"},
	}
	for _, tt := range tests {
		got, err := ParseColumns(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: got %+v, %v; want an error with %q", tt.reason, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: got %+v, %v; want %+v", tt.reason, got, err, tt.want)
		}
		if back, err := ParseColumns(got.String()); err != nil || back != got {
			t.Errorf("%s: %q reads back as %+v, %v", tt.reason, got.String(), back, err)
		}
	}
}

// TestColumnsRequests imports single requests from CSV (quoted fields,
// milliseconds, a client field) and JSON Lines (ISO times, numbers and
// strings), checking offsets, lengths, clients and bad rows.
func TestColumnsRequests(t *testing.T) {
	t.Parallel()
	cols := Columns{At: "ts", Input: "prompt tokens", Output: "completion", Client: "user"}
	tests := []struct {
		reason  string
		file    string
		opts    ColumnsOptions
		starts  []int64
		clients []string
		skipped []int // lines
	}{
		{
			"CSV in ms, quoted, a bad and an out-of-order row",
			"id,ts,prompt tokens,completion,user\n" +
				`1,1000,"100",7,Alice` + "\n" +
				`2,1500,50,0,"Bob, Jr."` + "\n" +
				"3,x,5,5,bob\n" + // line 4: bad time
				"4,1200,5,5,bob\n" + // line 5: before line 3
				"5,2250,5,5,alice\n",
			ColumnsOptions{Columns: cols, Unit: "ms"},
			[]int64{0, 500000, 1250000}, []string{"alice", "bob_jr."}, []int{4, 5},
		},
		{
			"JSON Lines with ISO times, a missing field",
			`{"ts":"2024-05-10T00:00:00Z","prompt tokens":100,"completion":"7","user":"a"}` + "\n\n" +
				`{"ts":"2024-05-10T00:00:01.5Z","prompt tokens":3}` + "\n" + // line 3
				`{"ts":"2024-05-10 00:00:02","prompt tokens":3,"completion":1,"user":"b"}` + "\n",
			ColumnsOptions{Columns: cols, Unit: "iso", JSON: true, Options: Options{Client: "x"}},
			[]int64{0, 2e6}, []string{"x.a", "x.b"}, []int{3},
		},
	}
	for _, tt := range tests {
		tt.opts.SkipBad = true
		cs, err := NewColumns(strings.NewReader(tt.file), tt.opts)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		var starts []int64
		for _, s := range drain(t, cs) {
			starts = append(starts, s.AtUS)
			if tu := s.Turns[0]; tu.MinTokens != tu.OutputTokens || tu.OutputTokens < 1 || !tu.IgnoreEOS {
				t.Errorf("%s: turn %+v, want an exact output of at least 1", tt.reason, tu)
			}
		}
		var lines []int
		for _, e := range cs.Skipped().First {
			lines = append(lines, e.Line)
		}
		if !slices.Equal(starts, tt.starts) || !slices.Equal(cs.Clients(), tt.clients) || !slices.Equal(lines, tt.skipped) {
			t.Errorf("%s: starts %v, clients %q, skipped lines %v; want %v, %q, %v", tt.reason, starts, cs.Clients(), lines, tt.starts, tt.clients, tt.skipped)
		}
	}
}

// TestColumnsSessions gathers interleaved rows of two conversations into
// sessions: turns in time order chained by parent, waits the gaps, the
// sessions in start order from the earliest row.
func TestColumnsSessions(t *testing.T) {
	t.Parallel()
	const file = "t,in,out,conv\n" +
		"10,100,20,b\n" +
		"12,50,5,a\n" +
		"11,140,30,b\n" + // out of order: sorted within b
		"20.5,400,0,b\n" +
		"30,60,6,a\n" +
		"40,1,1,\n" // line 7: empty session id
	cols := Columns{At: "t", Input: "in", Output: "out", Session: "conv"}
	cs, err := NewColumns(strings.NewReader(file), ColumnsOptions{Columns: cols, Options: Options{Client: "c", Model: "m", SkipBad: true}})
	if err != nil {
		t.Fatal(err)
	}
	ss := drain(t, cs)
	if len(ss) != 2 || cs.Skipped().Rows != 1 || cs.Skipped().First[0].Line != 7 {
		t.Fatalf("%d sessions, skipped %+v: want 2 and line 7", len(ss), cs.Skipped())
	}
	b, a := ss[0], ss[1]
	if want := []turnView{{100, 20, 0, -1}, {140, 30, 1e6, 0}, {400, 1, 9.5e6, 1}}; !slices.Equal(view(b.Turns), want) {
		t.Errorf("b: turns %v, want %v", view(b.Turns), want)
	}
	if want := []turnView{{50, 5, 0, -1}, {60, 6, 18e6, 0}}; !slices.Equal(view(a.Turns), want) {
		t.Errorf("a: turns %v, want %v", view(a.Turns), want)
	}
	if b.AtUS != 0 || a.AtUS != 2e6 || b.Index != 0 || a.Index != 1 || a.Client != "c" || a.Model != "m" {
		t.Errorf("sessions %+v and %+v: want b at 0, a at 2s, client c, model m", b, a)
	}
	cs, _ = NewColumns(strings.NewReader(file), ColumnsOptions{Columns: cols, Options: Options{Name: "f.csv"}})
	_, err = cs.Next()
	var re *RowError
	if !errors.As(err, &re) || re.Line != 7 || !strings.HasPrefix(err.Error(), "f.csv:7: conv: empty session id") {
		t.Errorf("got %v, want a RowError at f.csv:7", err)
	}
}

// TestColumnsCategory keeps each row's category on its turn, as requests
// and as a conversation's turns, spaces around it trimmed, none when the
// field is empty; a category as long as a prompt is a malformed row.
func TestColumnsCategory(t *testing.T) {
	t.Parallel()
	const file = "t,in,out,kind,conv\n" +
		"1,10,2, coding ,a\n" +
		"2,10,2,,b\n" +
		"3,10,2,chat,a\n"
	long := "4,10,2," + strings.Repeat("x", 65) + ",c\n"
	for _, tt := range []struct {
		reason string
		cols   Columns
		want   [][]string // each session's turns' categories
	}{
		{"requests", Columns{At: "t", Input: "in", Output: "out", Category: "kind"}, [][]string{{"coding"}, {""}, {"chat"}}},
		{"conversations", Columns{At: "t", Input: "in", Output: "out", Session: "conv", Category: "kind"}, [][]string{{"coding", "chat"}, {""}}},
	} {
		cs, err := NewColumns(strings.NewReader(file+long), ColumnsOptions{Columns: tt.cols, Options: Options{SkipBad: true}})
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		var got [][]string
		for _, s := range drain(t, cs) {
			var cats []string
			for _, tu := range s.Turns {
				cats = append(cats, tu.Category)
			}
			got = append(got, cats)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: categories %q, want %q", tt.reason, got, tt.want)
		}
		if sk := cs.Skipped(); sk.Rows != 1 || !strings.Contains(sk.First[0].Error(), "kind: category of 65 bytes") {
			t.Errorf("%s: skipped %+v, want the row of a 65-byte category", tt.reason, sk)
		}
	}
}

// turnView is what TestColumnsSessions compares of a turn.
type turnView struct {
	in, out int
	wait    int64
	parent  int // -1: none
}

// view returns the turnViews of turns.
func view(turns []trace.Turn) []turnView {
	var v []turnView
	for _, tu := range turns {
		p := -1
		if tu.Parent != nil {
			p = *tu.Parent
		}
		v = append(v, turnView{tu.InputTokens, tu.OutputTokens, tu.WaitUS, p})
	}
	return v
}

// TestColumnsOptions refuses incomplete mappings, unknown units and a
// CSV without the mapped columns.
func TestColumnsOptions(t *testing.T) {
	t.Parallel()
	full := Columns{At: "t", Input: "i", Output: "o"}
	tests := []struct {
		reason string
		file   string
		opts   ColumnsOptions
		err    string
	}{
		{"no output", "t,i,o\n", ColumnsOptions{Columns: Columns{At: "t", Input: "i"}}, "want at least"},
		{"unknown unit", "t,i,o\n", ColumnsOptions{Columns: full, Unit: "h"}, `time unit "h"`},
		{"missing column", "t,i\n", ColumnsOptions{Columns: full}, "no column o"},
		{"empty CSV", "", ColumnsOptions{Columns: full}, "empty file"},
	}
	for _, tt := range tests {
		if _, err := NewColumns(strings.NewReader(tt.file), tt.opts); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want an error with %q", tt.reason, err, tt.err)
		}
	}
}

// FuzzColumnRow checks that an accepted row makes a valid session with a
// client in the spec's alphabet.
func FuzzColumnRow(f *testing.F) {
	f.Add("1.5", "10", "0", "Alice", "s1", "s")
	f.Add("2024-05-10T00:00:00Z", "1", "10000000", "", "x", "iso")
	f.Add("-1e12", "3", "4", "b", "", "us")
	f.Fuzz(func(t *testing.T, at, in, out, client, session, unit string) {
		if !slices.Contains(TimeUnits, unit) {
			return
		}
		c := Columns{At: "a", Input: "i", Output: "o", Client: "c", Session: "s"}
		var q request
		gotClient, gotSession, err := parseColumnRow([]string{at, in, out, client, session}, c, unit, &q)
		if err != nil {
			return
		}
		if gotSession != session || gotSession == "" || strings.Trim(gotClient, "abcdefghijklmnopqrstuvwxyz0123456789_.-") != "" || gotClient == "" {
			t.Fatalf("accepted session %q client %q as %q, %q", session, client, gotSession, gotClient)
		}
		if err := newStream(nil, Options{}).session(&q).Validate(); err != nil {
			t.Fatalf("invalid session: %v", err)
		}
	})
}
