package report

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"surge/trace"
)

// TestServerChartsAbsentSeries: a figure the server does not report is
// not drawn (llama-server has no KV-cache gauge; a vLLM gauge can read
// NaN), and a chart with nothing to draw is a note, never an error.
func TestServerChartsAbsentSeries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		ss        []ServerSample
		kv, queue bool // drawn
		reason    string
	}{
		{"llama.cpp", []ServerSample{{AtUS: 0, Running: 2, NoKV: true}, {AtUS: 1e6, Running: 1, Waiting: 1, NoKV: true}},
			false, true, "requests_processing and requests_deferred but no KV-cache gauge"},
		{"nothing reported", []ServerSample{{AtUS: 0, NoKV: true, NoRunning: true, NoWaiting: true}, {AtUS: 1e6, NoKV: true, NoRunning: true, NoWaiting: true}},
			false, false, "a /metrics of other series, or an empty one"},
		{"NaN gauge", []ServerSample{{AtUS: 0, KVCacheUsage: math.NaN(), Running: 3}, {AtUS: 1e6, KVCacheUsage: 0.5, Running: 3}},
			true, true, "a NaN KV-cache use is skipped, not plotted"},
		{"every KV value NaN", []ServerSample{{AtUS: 0, KVCacheUsage: math.NaN()}, {AtUS: 1e6, KVCacheUsage: math.Inf(1)}},
			false, true, "no finite KV-cache use at all"},
	}
	for _, tt := range tests {
		cs := serverCharts(tt.ss, trace.RunHeader{})
		if len(cs) != 2 {
			t.Fatalf("%s: %d charts, want 2", tt.name, len(cs))
		}
		for i, drawn := range []bool{tt.kv, tt.queue} {
			c := cs[i]
			if c.drawn() != drawn || c.err != nil || !drawn && c.Note == "" {
				t.Errorf("%s: %s drawn %v, note %q, error %v; want drawn %v, or a note (%s)", tt.name, c.ID, c.drawn(), c.Note, c.err, drawn, tt.reason)
			}
		}
		var b bytes.Buffer
		var warned []error
		in := HTMLInput{Records: syntheticRun(), Server: tt.ss, Warn: func(err error) { warned = append(warned, err) }}
		if err := HTML(&b, in); err != nil {
			t.Errorf("%s: HTML: %v", tt.name, err)
			continue
		}
		page := b.String()
		if len(warned) > 0 || strings.Contains(page, "NaN") || strings.Contains(page, "could not be drawn") {
			t.Errorf("%s: warnings %v; the page shows NaN or a failure", tt.name, warned)
		}
		for i, id := range []string{"chart-server-kv", "chart-server-queue"} {
			if has := strings.Contains(page, `<svg id="`+id+`"`); has != []bool{tt.kv, tt.queue}[i] {
				t.Errorf("%s: svg %s present %v (%s)", tt.name, id, has, tt.reason)
			}
			if !strings.Contains(page, `<figure id="fig-`+id+`"`) {
				t.Errorf("%s: no figure for %s, drawn or noted", tt.name, id)
			}
		}
	}
}

// TestChartFailureIsANote: a chart that cannot be made or drawn (gonum/plot
// returns an error or panics) leaves a note in its place and a warning;
// the rest of the page is drawn.
func TestChartFailureIsANote(t *testing.T) {
	t.Parallel()
	panics := newPlot("x", "y")
	logAxis(&panics.Y) // gonum/plot panics on a log axis through 0
	if err := addLine(panics, "zero", plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, blue, false); err != nil {
		t.Fatal(err)
	}
	good := newPlot("x", "y")
	if err := addLine(good, "ok", plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 2}}, blue, false); err != nil {
		t.Fatal(err)
	}
	pg := &page{Title: "t", Run: &runView{ChartGroups: []chartGroup{{ID: "g", Title: "G", Charts: views([]*chart{
		brokenChart("chart-made", "Made", errors.New("plotter: NaN data point")),
		{ID: "chart-panics", Title: "Panics", plot: panics},
		{ID: "chart-good", Title: "Good", plot: good},
	})}}}}
	var warned []string
	pg.render(func(err error) { warned = append(warned, err.Error()) })
	cs := pg.charts()
	for i, want := range []string{"plotter: NaN data point", "chart chart-panics", ""} {
		c := cs[i]
		switch {
		case want == "" && (c.SVG == "" || c.Note != ""):
			t.Errorf("%s: not drawn: note %q", c.ID, c.Note)
		case want != "" && (c.SVG != "" || !strings.Contains(c.Note, want) || !strings.Contains(c.Note, "could not be drawn")):
			t.Errorf("%s: svg %d bytes, note %q; want a note saying %q", c.ID, len(c.SVG), c.Note, want)
		}
	}
	if len(warned) != 2 {
		t.Errorf("warnings %q, want one per failed chart", warned)
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, pg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<p class="note">This chart could not be drawn: chart chart-made: plotter: NaN data point.</p>`) {
		t.Errorf("the page lacks the note in the failed chart's place:\n%s", b.String())
	}
}
