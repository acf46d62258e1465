package importers

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestCheck lists the options Check and CheckSet refuse, each naming the
// option at fault and, in its message, the flag, the value and what is
// wanted.
func TestCheck(t *testing.T) {
	t.Parallel()
	two := []string{"a", "b"}
	tests := []struct {
		reason string
		opts   ImportOptions
		names  []string
		set    bool   // CheckSet: zeros are values given
		option string // "" for no error
		want   string
	}{
		{"zero value", ImportOptions{}, two, false, "", ""},
		{"zeros read as defaults", ImportOptions{Format: FormatAzure}, two, false, "", ""},
		{"a flag's 0 speed", ImportOptions{Concurrency: 1, Reshape: Reshape{Sample: 1}}, two, true, "speed", "--speed 0: want a positive factor"},
		{"a flag's 0 concurrency", ImportOptions{Speed: 1, Reshape: Reshape{Sample: 1}}, two, true, "concurrency", "--concurrency 0: want at least 1"},
		{"a flag's 0 sample", ImportOptions{Speed: 1, Concurrency: 1}, two, true, "sample", "--sample 0: want a fraction in (0, 1]"},
		{"speed not a number", ImportOptions{Speed: math.NaN()}, nil, false, "speed", "--speed NaN: want a positive factor"},
		{"infinite rate", ImportOptions{Rate: math.Inf(1)}, nil, false, "rate", "--rate +Inf: want a positive rate per second"},
		{"speed and rate", ImportOptions{Speed: 2, Rate: 3}, nil, false, "rate", "--speed and --rate both set the time scale: give one"},
		{"negative think", ImportOptions{Think: -time.Second}, nil, false, "think", "--think -1s: want a duration ≥ 0"},
		{"unknown time unit", ImportOptions{TimeUnit: "h"}, nil, false, "time-unit", `--time-unit "h": want one of s, ms, us, ns, iso`},
		{"empty window", ImportOptions{Reshape: Reshape{From: time.Second, To: time.Second}}, nil, false, "window", "--window 1s to 1s: want 0 ≤ from < to"},
		{"context of one token", ImportOptions{Reshape: Reshape{MaxContext: 1}}, nil, false, "max-context", "--max-context 1: want at least 2 tokens"},
		{"unknown format", ImportOptions{Format: "parquet"}, nil, false, "format", `--format "parquet": the formats are auto, azure,`},
		{"two sharegpt files", ImportOptions{Format: FormatShareGPT}, two, false, "files", "sharegpt: give one file, not 2"},
		{"a window of sharegpt", ImportOptions{Format: FormatShareGPT, Reshape: Reshape{To: time.Minute}}, nil, false, "window", "--window does not apply to sharegpt"},
		{"a rate of weka", ImportOptions{Format: FormatWEKA, Rate: 1}, nil, false, "window", "--window and --rate do not apply to weka conversations"},
		{"two weka-csv files", ImportOptions{Format: FormatWEKACSV}, two, false, "files", "weka-csv: give one file, not 2"},
		{"servegen with one length", ImportOptions{Format: FormatServeGen, Input: 100}, nil, false, "lengths", "--lengths 100:0: want IN:OUT tokens"},
		{"csv without columns", ImportOptions{Format: FormatCSV}, nil, false, "columns", "csv: give --columns [at=F,]input=F,output=F"},
		{"jsonl without output", ImportOptions{Format: FormatJSONL, Columns: Columns{At: "t", Input: "i"}}, nil, false, "columns", `--columns "at=t,input=i": want at least input= and output=`},
		{"columns of azure", ImportOptions{Format: FormatAzure, Columns: Columns{At: "t", Input: "i", Output: "o"}}, nil, false, "columns", "--columns is for the csv and jsonl formats, not azure"},
	}
	for _, tt := range tests {
		check := tt.opts.Check
		if tt.set {
			check = tt.opts.CheckSet
		}
		err := check(tt.names)
		var oe *OptionError
		switch {
		case tt.option == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.reason, err)
		case tt.option == "":
		case !errors.As(err, &oe) || oe.Option != tt.option || !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: %v (%#v), want an OptionError of %s saying %q", tt.reason, err, oe, tt.option, tt.want)
		}
	}
}

// TestCheckEveryProblem reports every option out of range at once.
func TestCheckEveryProblem(t *testing.T) {
	t.Parallel()
	err := ImportOptions{Speed: -1, Concurrency: -2, Reshape: Reshape{Sample: 2}}.Check(nil)
	for _, want := range []string{"--speed -1", "--concurrency -2", "--sample 2"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to say %q", err, want)
		}
	}
}

// TestImportChecks has Import, and OpenRequests, refuse options out of
// range with an OptionError before writing anything, and the conversation
// formats' options once the format is detected.
func TestImportChecks(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"five.csv": fiveRequests,
		"w.json":   {Data: []byte(`{"id":"a","block_size":64,"hash_id_scope":"local","requests":[{"t":0,"type":"n","model":"m","in":100,"out":5,"hash_ids":[1],"think_time":0,"api_time":1}]}`)},
	}
	tests := []struct {
		reason string
		name   string
		opts   ImportOptions
		option string
	}{
		{"a negative speed", "five.csv", ImportOptions{Speed: -1}, "speed"},
		{"a window of weka, detected", "w.json", ImportOptions{Reshape: Reshape{From: time.Second}}, "window"},
		{"columns of azure, detected", "five.csv", ImportOptions{Columns: Columns{At: "t", Input: "i", Output: "o"}, Format: FormatAzure}, "columns"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		_, err := Import(context.Background(), &out, fsys, []string{tt.name}, tt.opts)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Option != tt.option || out.Len() > 0 {
			t.Errorf("%s: %v, %d bytes written; want an OptionError of %s and nothing written", tt.reason, err, out.Len(), tt.option)
		}
	}
	_, err := OpenRequests(fsys, []string{"five.csv"}, ImportOptions{TimeUnit: "h"})
	if oe := (*OptionError)(nil); !errors.As(err, &oe) || oe.Option != "time-unit" {
		t.Errorf("OpenRequests: %v, want an OptionError of time-unit", err)
	}
}

// TestParseArrivals reads poisson and even, and refuses anything else.
func TestParseArrivals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		even bool
		ok   bool
	}{{"poisson", false, true}, {"even", true, true}, {"gamma", false, false}, {"", false, false}} {
		even, err := ParseArrivals(tt.in)
		if even != tt.even || (err == nil) != tt.ok {
			t.Errorf("ParseArrivals(%q) = %v, %v; want %v, ok %v", tt.in, even, err, tt.even, tt.ok)
		}
	}
}
