package dataset

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadFixtures(t *testing.T) {
	t.Parallel()
	fsys := os.DirFS("testdata")
	tests := []struct {
		name    string
		opts    Options
		format  Format
		first   string
		rows    []int
		skipped int
		reason  string
	}{
		{"sharegpt.json", Options{}, ShareGPT, "How long should green tea steep, and how hot should the water be?", []int{2, 11, 19}, 1,
			"each conversation starts at its line; one with no human message is skipped"},
		{"prompts.jsonl", Options{}, JSONL, "Explain what a hash table is to a new programmer.", []int{1, 3, 4, 5}, 0,
			"prompt, text and messages fields; the blank line is passed"},
		{"prompts.csv", Options{}, CSV, "Describe the smell of rain on dry earth.", []int{2, 3, 6}, 1,
			"a quoted newline keeps its row's line; an empty prompt is skipped"},
		{"prompts.csv", Options{Field: "category"}, CSV, "creative", []int{2, 3, 5, 6}, 0, "field names another column"},
	}
	for _, tt := range tests {
		s, err := Read(fsys, tt.name, tt.opts)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if s.Format != tt.format || s.Entries[0].Turns[0].Prompt != tt.first || s.Skipped != tt.skipped || !strings.HasPrefix(s.Hash, "sha256:") {
			t.Errorf("%s (%s): format %s, first %q, skipped %d, hash %s", tt.name, tt.reason, s.Format, s.Entries[0].Turns[0].Prompt, s.Skipped, s.Hash)
		}
		var rows []int
		for _, e := range s.Entries {
			rows = append(rows, e.Row)
		}
		if !equal(rows, tt.rows) {
			t.Errorf("%s (%s): rows %v, want %v", tt.name, tt.reason, rows, tt.rows)
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestShareGPTConversations(t *testing.T) {
	t.Parallel()
	fsys := os.DirFS("testdata")
	one, err := Read(fsys, "sharegpt.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := Read(fsys, "sharegpt.json", Options{Conversations: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Entries[0].Turns) != 1 || len(all.Entries[0].Turns) != 2 {
		t.Errorf("first conversation: %d turns single, %d with conversations; want 1 and 2", len(one.Entries[0].Turns), len(all.Entries[0].Turns))
	}
	if got := all.Entries[0].Turns[1]; got.Prompt != "And oolong?" || !strings.HasPrefix(got.Reply, "Oolong takes") {
		t.Errorf("second turn %+v", got)
	}
	if e := all.Entries[1]; e.System != "You are a terse assistant." || e.ID != "sys" || e.Turns[0].Reply != "53, 59 and 61." {
		t.Errorf("system conversation %+v", e)
	}
	if e := all.Entries[2]; !strings.HasPrefix(e.Turns[0].Prompt, "Write a haiku") {
		t.Errorf("a leading gpt greeting is passed: %+v", e)
	}
	if one.Hash != all.Hash {
		t.Errorf("the hash is the file's: %s and %s", one.Hash, all.Hash)
	}
}

func TestMessages(t *testing.T) {
	t.Parallel()
	s, err := Read(os.DirFS("testdata"), "prompts.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := s.Entries[2]
	if e.System != "Answer in French." || e.Turns[0].Prompt != "What is the capital of Peru?" || e.Turns[0].Reply != "Lima." {
		t.Errorf("messages entry %+v", e)
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		opts       Options
		want       string
	}{
		{"a.json", "[\n{\"conversations\": [{\"from\": \"robot\", \"value\": \"hi\"}]}\n]", Options{}, `a.json: line 2: field "conversations": message 0: from "robot"`},
		{"a.json", "[\n{\"conversations\": []},\n{\"conversations\": [}\n]", Options{}, "a.json: record 2 (near line"},
		{"a.json", "", Options{}, "a.json: empty file"},
		{"a.json", "[1]", Options{}, "a.json: line 1: not a JSON object"},
		{"a.json", "[{\"conversations\": []}]", Options{}, "a.json: no prompt in sharegpt"},
		{"a.jsonl", "{\"prompt\": \"x\"}\n{\"prompt\": 3}\n", Options{}, `a.jsonl: line 2: field "prompt": want a string`},
		{"a.jsonl", "{\"prompt\": \"x\"}\n{\"q\": \"y\"}\n", Options{}, `a.jsonl: line 2: no field "conversations", "messages", "prompt" or "text"`},
		{"a.jsonl", "{\"q\": \"y\"}\n", Options{Field: "question"}, `a.jsonl: line 1: no field "question"`},
		{"a.jsonl", "{\"prompt\": \"x\"\n", Options{}, "a.jsonl: line 1: not a JSON object"},
		{"a.csv", "question\nhi\n", Options{}, `a.csv: line 1: no column "prompt" among question`},
		{"a.csv", "prompt\n\"open\n", Options{}, "a.csv: line 2:"},
		{"a.csv", "", Options{}, "a.csv: empty file"},
		{"a.txt", "hello", Options{}, "a.txt: cannot tell the format"},
		{"b.txt", "[{\"prompt\": \"p\"}]", Options{Format: "xml"}, `unknown format "xml"`},
	}
	for _, tt := range tests {
		_, err := Read(fstest.MapFS{tt.name: {Data: []byte(tt.text)}}, tt.name, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %q: error %v, want %q", tt.name, tt.text, err, tt.want)
		}
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, head string
		want       Format
	}{
		{"x.json", "", ShareGPT},
		{"x.JSONL", "", JSONL},
		{"x.ndjson", "", JSONL},
		{"x.csv", "", CSV},
		{"x.parquet", "", Parquet},
		{"x", "PAR1....", Parquet},
		{"x", "\xef\xbb\xbf  [", ShareGPT},
		{"x", "\n{", JSONL},
	}
	for _, tt := range tests {
		if got, err := Detect(tt.name, []byte(tt.head)); err != nil || got != tt.want {
			t.Errorf("Detect(%q, %q) = %s, %v; want %s", tt.name, tt.head, got, err, tt.want)
		}
	}
	if _, err := Detect("x", []byte("id,prompt")); err == nil {
		t.Error("a CSV without its extension: no error")
	}
}

func TestDetectedContent(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"data": {Data: []byte(`[{"prompt": "from an array of prompt records"}]`)}}
	s, err := Read(fsys, "data", Options{})
	if err != nil || s.Format != ShareGPT || s.Entries[0].Turns[0].Prompt != "from an array of prompt records" {
		t.Fatalf("got %+v, %v", s, err)
	}
}

func TestTooLarge(t *testing.T) {
	t.Parallel()
	long := `{"prompt": "` + strings.Repeat("a", MaxRecordBytes) + `"}`
	_, err := Read(fstest.MapFS{"a.jsonl": {Data: []byte(long)}}, "a.jsonl", Options{})
	if err == nil || !strings.Contains(err.Error(), "line 1: a line longer than") {
		t.Errorf("error %v", err)
	}
}

// fuzzRead reads text as name and checks what any reader returns: an
// error, or entries each with a prompt and a row.
func fuzzRead(t *testing.T, name string, text []byte, opts Options) {
	s, err := Read(fstest.MapFS{name: {Data: text}}, name, opts)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "dataset "+name+": ") {
			t.Fatalf("error %q does not name the file", err)
		}
		return
	}
	for _, e := range s.Entries {
		if len(e.Turns) == 0 || strings.TrimSpace(e.Turns[0].Prompt) == "" || e.Row < 1 {
			t.Fatalf("entry %+v", e)
		}
	}
}

func FuzzShareGPT(f *testing.F) {
	b, _ := os.ReadFile("testdata/sharegpt.json")
	f.Add(b, false)
	f.Add([]byte(`{"conversations":[{"from":"human","value":"a"}]}{"messages":[{"role":"user","content":"b"}]}`), true)
	f.Fuzz(func(t *testing.T, text []byte, conv bool) { fuzzRead(t, "f.json", text, Options{Conversations: conv}) })
}

func FuzzJSONL(f *testing.F) {
	b, _ := os.ReadFile("testdata/prompts.jsonl")
	f.Add(b, "")
	f.Add([]byte(`{"q": "x"}`), "q")
	f.Fuzz(func(t *testing.T, text []byte, field string) { fuzzRead(t, "f.jsonl", text, Options{Field: field}) })
}

func FuzzCSV(f *testing.F) {
	b, _ := os.ReadFile("testdata/prompts.csv")
	f.Add(b, "")
	f.Add([]byte("q\n\"a\"\"b\"\n"), "q")
	f.Fuzz(func(t *testing.T, text []byte, field string) { fuzzRead(t, "f.csv", text, Options{Field: field}) })
}
