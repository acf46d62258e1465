package workload

import (
	"reflect"
	"testing"

	"surge/content/vision"
)

// imagesSpec is a chat client and an agent client, with images when
// block is not empty.
func imagesSpec(block string) string {
	return `version: 1
seed: 9
requests: 20
clients:
  - name: chat
    model: Qwen2.5-VL-7B
    concurrency: 2
    input: {dist: uniform, min: 20, max: 200}
    output: 20
    session: {kind: chat, turns: 3}
` + block + `  - name: agent
    model: gpt-4o
    concurrency: 2
    input: 100
    output: 20
    session: {kind: agent, steps: 3, tools: 1, tool_latency: 1s, tool_result: 30}
` + block
}

// TestImagesOnTurns checks which turns carry images, that each image's
// tokens are its model's count for its size, and that images change no
// length or text of the workload without them.
func TestImagesOnTurns(t *testing.T) {
	t.Parallel()
	block := "    images: {count: {dist: uniform, min: 1, max: 3}, size: {width: {dist: uniform, min: 16, max: 4096}, height: 720}, format: jpeg}\n"
	_, with := generate(t, parse(t, imagesSpec(block)), Options{})
	_, without := generate(t, parse(t, imagesSpec("")), Options{})
	if len(with) != len(without) {
		t.Fatalf("%d sessions with images, %d without", len(with), len(without))
	}
	images := 0
	for i, s := range with {
		for k := range s.Turns {
			tr := &s.Turns[k]
			agentLater := s.Client == "agent" && k > 0
			if n := len(tr.Images); (n == 0) != agentLater || n > 3 {
				t.Errorf("%s/%d turn %d: %d images", s.Client, s.Index, k, n)
			}
			for _, im := range tr.Images {
				images++
				if im.H != 720 || im.W < 16 || im.W > 4096 || im.Format != "jpeg" || im.Tokens != vision.Tokens(s.Model, im.W, im.H) {
					t.Errorf("%s/%d turn %d: image %+v", s.Client, s.Index, k, im)
				}
			}
			tr.Images = nil
		}
		if !reflect.DeepEqual(s, without[i]) {
			t.Errorf("session %s/%d differs from its twin without images beyond them", s.Client, s.Index)
		}
	}
	if images < 40 {
		t.Errorf("%d images in all, want at least 40", images)
	}
}

// TestImagesDistinct checks that images are each their own by default,
// and drawn from distinct seeds per client when asked; and that the same
// spec gives the same images.
func TestImagesDistinct(t *testing.T) {
	t.Parallel()
	seeds := func(block string) (map[uint64]int, int) {
		_, ss := generate(t, parse(t, imagesSpec(block)), Options{})
		_, again := generate(t, parse(t, imagesSpec(block)), Options{NoText: true})
		m, n := map[uint64]int{}, 0
		for i, s := range ss {
			for k, tr := range s.Turns {
				if !reflect.DeepEqual(tr.Images, again[i].Turns[k].Images) {
					t.Fatalf("%s/%d turn %d: images differ between two compilations", s.Client, s.Index, k)
				}
				for _, im := range tr.Images {
					m[im.Seed]++
					n++
				}
			}
		}
		return m, n
	}
	if m, n := seeds("    images: {size: 64x64}\n"); len(m) != n {
		t.Errorf("%d seeds for %d images, want each its own", len(m), n)
	}
	if m, _ := seeds("    images: {size: 64x64, distinct: 3}\n"); len(m) > 6 || len(m) < 2 {
		t.Errorf("%d seeds, want at most 3 per client", len(m))
	}
}
