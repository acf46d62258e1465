package report

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ChartsPNG writes every chart of the HTML report of in as a PNG file in
// dir, named after the chart's id ("chart-ttft-cdf.png"), at 1280 × 720
// pixels (twice the page's 640 × 360), and returns their paths in page
// order. dir must exist. A chart the page shows as a note is skipped
// (in.Warn, if set, is told of those that could not be made).
func ChartsPNG(dir string, in HTMLInput) ([]string, error) {
	pg, err := buildPage(in)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, c := range pg.charts() {
		if c.err != nil && in.Warn != nil {
			in.Warn(c.err)
		}
		if !c.drawn() {
			continue
		}
		path := filepath.Join(dir, c.ID+".png")
		if err := writePNG(path, c.chart); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// writePNG writes c to a new file at path.
func writePNG(path string, c *chart) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("chart png: %w", err)
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	w := bufio.NewWriter(f)
	if err := c.png(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("chart png %s: %w", path, err)
	}
	return nil
}
