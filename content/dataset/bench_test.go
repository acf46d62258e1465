package dataset

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// shareGPTBytes is a ShareGPT file of n two-turn conversations.
func shareGPTBytes(n int) []byte {
	var convs []map[string]any
	for i := range n {
		msg := func(from, v string) map[string]string { return map[string]string{"from": from, "value": v} }
		text := strings.Repeat(fmt.Sprintf("Sentence %d of a longer message about tea and bicycles. ", i), 8)
		convs = append(convs, map[string]any{"id": fmt.Sprint(i), "conversations": []map[string]string{
			msg("human", text), msg("gpt", text), msg("human", "And then?"), msg("gpt", text)}})
	}
	b, _ := json.Marshal(convs)
	return b
}

func BenchmarkReadShareGPT(b *testing.B) {
	data := shareGPTBytes(4000)
	fsys := fstest.MapFS{"s.json": {Data: data}}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(fsys, "s.json", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadJSONL(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "{\"prompt\": %q}\n", strings.Repeat(fmt.Sprintf("Prompt %d about the water cycle. ", i), 6))
	}
	fsys := fstest.MapFS{"p.jsonl": {Data: []byte(sb.String())}}
	b.SetBytes(int64(sb.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(fsys, "p.jsonl", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
