package dataset

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/parquet-go/parquet-go"
)

var update = flag.Bool("update", false, "rewrite testdata/prompts.parquet")

// parquetRow is a row of the Parquet fixture.
type parquetRow struct {
	ID       int64   `parquet:"id"`
	Prompt   *string `parquet:"prompt,optional"`
	Category string  `parquet:"category"`
	Score    float64 `parquet:"score"`
}

// parquetPrompts are the prompts of testdata/prompts.parquet, "" a null.
var parquetPrompts = []string{
	"Describe the smell of rain on dry earth.",
	"Give a recipe for a simple tomato soup, with a note on seasoning.",
	"",
	"What does \"idempotent\" mean for an HTTP method?",
	"Explain how a bicycle gear works to a ten-year-old.",
}

// writeParquet returns a Parquet file of rows, in row groups of two rows.
func writeParquet(t *testing.T, prompts []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[parquetRow](&buf, parquet.MaxRowsPerRowGroup(2))
	for i, p := range prompts {
		r := parquetRow{ID: int64(i + 1), Category: "c" + strings.Repeat("x", i), Score: float64(i)}
		if p != "" {
			r.Prompt = &p
		}
		if _, err := w.Write([]parquetRow{r}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestParquetFixture checks that testdata/prompts.parquet is the file
// writeParquet makes (-update rewrites it) and reads back its prompts.
func TestParquetFixture(t *testing.T) {
	want := writeParquet(t, parquetPrompts)
	if *update {
		if err := os.WriteFile("testdata/prompts.parquet", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Read(os.DirFS("testdata"), "prompts.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var rows []int
	for _, e := range s.Entries {
		got = append(got, e.Turns[0].Prompt)
		rows = append(rows, e.Row)
	}
	wantPrompts := []string{parquetPrompts[0], parquetPrompts[1], parquetPrompts[3], parquetPrompts[4]}
	if strings.Join(got, "|") != strings.Join(wantPrompts, "|") || !equal(rows, []int{1, 2, 4, 5}) || s.Skipped != 1 || s.Format != Parquet {
		t.Errorf("prompts %q rows %v skipped %d format %s", got, rows, s.Skipped, s.Format)
	}
}

func TestParquetErrors(t *testing.T) {
	t.Parallel()
	file := writeParquet(t, parquetPrompts)
	tests := []struct {
		data  []byte
		field string
		want  string
	}{
		{file, "question", `no column "question" among id, prompt, category, score`},
		{file, "id", `column "id" holds INT(64,true): want strings`},
		{[]byte("PAR1 not really"), "", "not a parquet file"},
	}
	for _, tt := range tests {
		_, err := Read(fstest.MapFS{"a.parquet": {Data: tt.data}}, "a.parquet", Options{Field: tt.field})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("field %q: error %v, want %q", tt.field, err, tt.want)
		}
	}
	s, err := Read(fstest.MapFS{"a.parquet": {Data: file}}, "a.parquet", Options{Field: "category"})
	if err != nil || len(s.Entries) != 5 || s.Entries[4].Turns[0].Prompt != "cxxxx" {
		t.Errorf("category column: %+v, %v", s, err)
	}
}
