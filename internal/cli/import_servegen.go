package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"surge/trace/importers"
)

// openServeGen opens a ServeGen client's window CSV, with the length
// PMFs of the chunk-N-dataset.json beside chunk-N-trace.csv when there is
// one, generating only the windows --window keeps.
func (rf *requestFiles) openServeGen(file *os.File, path string, opts importers.Options, f importFlags) (*importers.ServeGen, error) {
	in, out, err := parseLengths(f.lengths)
	if err != nil {
		return nil, err
	}
	from, to, err := parseWindow(f.window)
	if err != nil {
		return nil, fmt.Errorf("--window %q: %w", f.window, err)
	}
	sopts := importers.ServeGenOptions{Options: opts, Seed: f.seed, From: from, To: to, Input: in, Output: out}
	var lengths *os.File
	if strings.HasSuffix(path, "-trace.csv") {
		lengths, err = os.Open(strings.TrimSuffix(path, "-trace.csv") + "-dataset.json")
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	if lengths == nil {
		return importers.NewServeGen(file, nil, sopts)
	}
	rf.files = append(rf.files, lengths)
	return importers.NewServeGen(file, lengths, sopts)
}

// parseLengths parses --lengths IN:OUT; empty is 1024:256.
func parseLengths(s string) (in, out int, err error) {
	if s == "" {
		return 1024, 256, nil
	}
	a, b, ok := strings.Cut(s, ":")
	in, err1 := strconv.Atoi(a)
	out, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || in < 1 || out < 1 {
		return 0, 0, fmt.Errorf("--lengths %q: want IN:OUT tokens, such as 1024:256", s)
	}
	return in, out, nil
}

// serveGenClients names ServeGen clients after their model's folder and
// chunk: language/m-large/chunk-78-trace.csv is m-large.chunk-78.
func serveGenClients(paths []string) []string {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), "-trace")
		if dir := filepath.Base(filepath.Dir(p)); dir != "." && dir != string(filepath.Separator) {
			names[i] = strings.ToLower(dir) + "." + names[i]
		}
	}
	return names
}
