package sweep

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestConfigCheck(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		cfg  Config
		want string // "" for no error
	}{
		{"rates", Config{Mode: Rate, Loads: []float64{1, 2.5}}, ""},
		{"auto with defaults", Config{Mode: Rate, Auto: true}, ""},
		{"nothing", Config{Mode: Rate}, "nothing to sweep"},
		{"auto concurrency", Config{Mode: Concurrency, Auto: true}, "varies the rate"},
		{"fractional concurrency", Config{Mode: Concurrency, Loads: []float64{1.5}}, "whole number"},
		{"negative rate", Config{Mode: Rate, Loads: []float64{-1}}, "positive number"},
		{"huge rate", Config{Mode: Rate, Loads: []float64{1e12}}, "positive number"},
		{"headroom", Config{Mode: Rate, Auto: true, Headroom: 1.5}, "--headroom 1.5"},
		{"NaN precision", Config{Mode: Rate, Auto: true, Precision: math.NaN()}, "--precision NaN"},
		{"low confidence", Config{Mode: Rate, Auto: true, Confidence: 0.4}, "--confidence 0.4"},
		{"negative points", Config{Mode: Rate, Auto: true, Points: -1}, "--points -1"},
	} {
		err := tt.cfg.Check()
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Check() = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestParseLoads(t *testing.T) {
	t.Parallel()
	if got, err := ParseLoads(Rate, "1, 2.5/s,8"); err != nil || !slices.Equal(got, []float64{1, 2.5, 8}) {
		t.Errorf("ParseLoads(rates) = %v, %v", got, err)
	}
	if got, err := ParseLoads(Rate, ""); err != nil || got != nil {
		t.Errorf("ParseLoads(\"\") = %v, %v; want nothing", got, err)
	}
	for _, tt := range []struct {
		m    Mode
		s    string
		want string
	}{
		{Concurrency, "1,2.5", `"2.5": each load must be a positive whole number, as in 1,2,4,8`},
		{Rate, "1,x", `"x": each load must be a positive number, as in 1,2,4,8`},
		{Rate, "0", `"0": each load must be a positive number`},
	} {
		if _, err := ParseLoads(tt.m, tt.s); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseLoads(%s, %q) = %v, want %q", tt.m, tt.s, err, tt.want)
		}
	}
}
