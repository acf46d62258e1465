package fit

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"surge/content"
	"surge/spec"
)

func TestStyleOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		category string
		want     content.Style
	}{
		{"code", content.StyleCode},
		{"Coding", content.StyleCode},
		{"creative-writing", content.StyleCreative},
		{" QA ", content.StyleQuestion},
		{"Tool Use", content.StyleTools},
		{"function_calling", content.StyleTools},
		{"summarization", content.StyleSummarize},
		{"long.context", content.StyleLongQA},
		{"misc", content.StyleMixed},
		{"", content.StyleMixed},
	} {
		if got := StyleOf(tc.category); got != tc.want {
			t.Errorf("StyleOf(%q) = %s, want %s", tc.category, got, tc.want)
		}
	}
}

// categorized is poissonTraffic's one client with each request given the
// categories in turn, cycling.
func categorized(n int, cats ...string) *Traffic {
	tr := poissonTraffic(n, 4, "c")
	s := tr.Samples["c"]
	for i := range s.In {
		s.Categories = count(s.Categories, cats[i%len(cats)])
	}
	return tr
}

// TestFitMix: a trace's categories become the client's content: mix,
// each style at its categories' share (two categories of one style
// summed, one of none drawn as mixed), which parses, regenerates within
// the check's bound, and is left out when no category names a style.
func TestFitMix(t *testing.T) {
	t.Parallel()
	// Shares: code 0.5 (coding, programming), chat 0.25, mixed 0.25.
	tr := categorized(2000, "coding", "chat", "programming", "misc")
	clients, err := Clients(tr, true)
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := Spec("mix", clients)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("mix", yaml)
	if err != nil {
		t.Fatalf("%v\n%s", err, yaml)
	}
	want := map[string]float64{"code": 0.5, "chat": 0.25, "mixed": 0.25}
	got := map[string]float64{}
	for _, w := range s.Clients[0].Content {
		got[w.Name] = w.Weight
	}
	if len(got) != len(want) {
		t.Fatalf("content %v, want %v\n%s", s.Clients[0].Content, want, yaml)
	}
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-3 {
			t.Errorf("content %s: %g, want %g", k, got[k], w)
		}
	}
	var out bytes.Buffer
	r, err := Check(context.Background(), &out, yaml, tr, clients)
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Comparisons[0]; !c.Mix || c.MixTV > MixBound || len(r.Off) > 0 {
		t.Errorf("check: mix %v, distance %.3f, off %q; want a mix within %.2f\n%s", c.Mix, c.MixTV, r.Off, MixBound, out.String())
	}
	if !strings.Contains(out.String(), "query mix of c: content styles") {
		t.Errorf("check output has no query mix line:\n%s", out.String())
	}

	clients, err = Clients(categorized(100, "misc", "other"), true)
	if err != nil {
		t.Fatal(err)
	}
	if yaml, err = Spec("unstyled", clients); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(yaml), "content:") || !strings.Contains(string(yaml), "no category names a content style") {
		t.Errorf("categories naming no style: want no content: and a comment saying so\n%s", yaml)
	}
}

// TestMixDistance: the total variation distance of a mix and a
// regenerated sample's styles.
func TestMixDistance(t *testing.T) {
	t.Parallel()
	m := mixOf(map[string]int{"coding": 3, "chat": 1})
	for _, tc := range []struct {
		why  string
		got  map[string]int
		want float64
	}{
		{"the same shares", map[string]int{"code": 30, "chat": 10}, 0},
		{"a style the mix has not", map[string]int{"code": 3, "math": 1}, 0.25},
		{"no styles: all mixed", nil, 1},
	} {
		if d := mixDistance(m, tc.got); math.Abs(d-tc.want) > 1e-12 {
			t.Errorf("%s: %g, want %g", tc.why, d, tc.want)
		}
	}
}
