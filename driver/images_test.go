package driver

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"testing/synctest"

	"surge/client"
	"surge/content/vision"
	"surge/trace"
)

// TestImages checks a turn's images go with its user message, made from
// their seeds, that a turn continuing the conversation sends its parent's
// again in place, and that each record counts the images its request sent
// and their tokens.
func TestImages(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0}, []int{1})
		first := ss[0].Turns[0]
		first.Images = []trace.Image{{W: 32, H: 16, Tokens: 7, Seed: 1}, {W: 16, H: 16, Tokens: 5, Seed: 2, Format: "jpeg"}}
		second := first
		second.Parent, second.Prompt = new(int), "again"
		second.Images = []trace.Image{{W: 64, H: 64, Tokens: 11, Seed: 3}}
		ss[0].Turns = []trace.Turn{first, second}
		f := &fake{}
		_, out := runBubble(t, t.Context(), mustNew(t, Config{Client: f}, h, ss), f)
		if len(f.reqs) != 2 || len(out.recs) != 2 {
			t.Fatalf("%d requests, %d records", len(f.reqs), len(out.recs))
		}
		if m := f.reqs[0].Messages; len(m) != 1 || len(m[0].Images) != 2 {
			t.Errorf("turn 0 sent %+v, want one message with 2 images", m)
		}
		last := f.reqs[1].Messages
		if n := len(last); n != 3 || len(last[0].Images) != 2 || len(last[2].Images) != 1 || len(last[1].Images) != 0 {
			t.Fatalf("turn 1 sent %d messages: %+v", n, last)
		}
		im := last[0].Images[1]
		raw, _ := vision.Encode(16, 16, 2, "jpeg")
		if im.MediaType != "image/jpeg" || im.Data != base64.StdEncoding.EncodeToString(raw) {
			t.Errorf("image 2 sent as %s, not seed 2's jpeg", im.MediaType)
		}
		for k, want := range [][2]int{{2, 12}, {3, 23}} {
			if r := out.recs[k]; r.Images != want[0] || r.ImageTokens != want[1] {
				t.Errorf("record %d: %d images, %d image tokens; want %v", k, r.Images, r.ImageTokens, want)
			}
		}
	})
}

// TestImagesPrefetched checks an open-loop session's images are made
// ImageLead before its start, not at its send: while session 0 is in
// flight, session 1's image, due at 5 s, is in the cache by 4 s.
func TestImagesPrefetched(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, ss := openTrace([]int64{0, 5000}, []int{4000, 1})
		ss[1].Turns[0].Images = []trace.Image{{W: 64, H: 64, Tokens: 16, Seed: 9}}
		cache := vision.NewCache(0, 1)
		f := &fake{}
		var bytesAt4s int
		d := mustNew(t, Config{Client: doerFunc(func(ctx context.Context, req *client.Request) *client.Result {
			if len(f.reqs) == 0 {
				defer func() { bytesAt4s = cache.Bytes() }()
			}
			return f.Do(ctx, req)
		}), Images: cache}, h, ss)
		runBubble(t, t.Context(), d, f)
		if bytesAt4s == 0 {
			t.Error("session 1's image was not made by 4 s, a second before its start")
		}
		if len(f.reqs) != 2 || len(f.reqs[1].Messages[0].Images) != 1 {
			t.Errorf("%d requests; the second with %d images", len(f.reqs), len(f.reqs[1].Messages[0].Images))
		}
	})
}

// TestImagesNeedMessages checks a run that sends a trace's images to the
// completions api (--api) is refused before it starts.
func TestImagesNeedMessages(t *testing.T) {
	t.Parallel()
	h, ss := openTrace([]int64{0}, []int{1})
	ss[0].Turns[0].Images = []trace.Image{{W: 16, H: 16, Tokens: 4}}
	if _, err := New(Config{Client: &fake{}, API: "completions"}, h, ss); err == nil || !strings.Contains(err.Error(), "turn 0 carries 1 images, which only the chat") {
		t.Errorf("New: %v", err)
	}
}
