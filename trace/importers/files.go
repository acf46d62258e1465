package importers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
)

// DetectFiles returns the format of the named files of fsys, detected
// from each file's first bytes and the same for all. With a column
// mapping (mapped), it is csv or jsonl by the first file's first byte:
// jsonl when it starts with an object.
func DetectFiles(fsys fs.FS, names []string, mapped bool) (Format, error) {
	if len(names) == 0 {
		return "", errors.New("import: no files")
	}
	if mapped {
		return detectMapped(fsys, names[0])
	}
	var first Format
	for _, name := range names {
		f, err := detectFile(fsys, name)
		if err != nil {
			return "", err
		}
		if first != "" && f != first {
			return "", fmt.Errorf("import: %s is %s but %s is %s: import one format at a time", name, f, names[0], first)
		}
		first = f
	}
	return first, nil
}

// detectFile names one file's format from its first bytes.
func detectFile(fsys fs.FS, name string) (Format, error) {
	head, err := peek(fsys, name, DetectBytes)
	if err != nil {
		return "", err
	}
	f, err := Detect(head)
	if err != nil {
		return "", fmt.Errorf("import %s: %w (formats: %s)", name, err, formatList())
	}
	return f, nil
}

// detectMapped names the generic format of a file read by a column
// mapping: jsonl when it starts with an object, else csv.
func detectMapped(fsys fs.FS, name string) (Format, error) {
	head, err := peek(fsys, name, 1<<10)
	if err != nil {
		return "", err
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if len(head) > 0 && head[0] == '{' {
		return FormatJSONL, nil
	}
	return FormatCSV, nil
}

// peek returns the first n bytes of the named file, or all of a shorter
// one.
func peek(fsys fs.FS, name string, n int) ([]byte, error) {
	file, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	defer file.Close()
	head, err := bufio.NewReaderSize(file, n).Peek(n)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("import: reading %s: %w", name, err)
	}
	return head, nil
}

// formatList lists the formats, comma-separated.
func formatList() string {
	var names []string
	for _, f := range Formats {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// clientNames names the client of each file: client, numbered when
// there are several files, or else the file's base name without its
// extension, numbered when two files share one.
func clientNames(names []string, client string) []string {
	out := make([]string, len(names))
	seen := map[string]int{}
	for i, p := range names {
		switch {
		case client != "" && len(names) == 1:
			out[i] = client
		case client != "":
			out[i] = fmt.Sprintf("%s-%d", client, i+1)
		default:
			base := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
			seen[base]++
			out[i] = base
			if seen[base] > 1 {
				out[i] = fmt.Sprintf("%s-%d", base, seen[base])
			}
		}
	}
	return out
}

// serveGenClients names ServeGen clients after their model's folder and
// chunk: language/m-large/chunk-78-trace.csv is m-large.chunk-78.
func serveGenClients(names []string) []string {
	out := make([]string, len(names))
	for i, p := range names {
		out[i] = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), "-trace")
		if dir := filepath.Base(filepath.Dir(p)); dir != "." && dir != string(filepath.Separator) {
			out[i] = strings.ToLower(dir) + "." + out[i]
		}
	}
	return out
}

// serveGenLengths opens the chunk-N-dataset.json beside a ServeGen
// client's chunk-N-trace.csv, or returns nil when there is none.
func serveGenLengths(fsys fs.FS, name string) (fs.File, error) {
	if !strings.HasSuffix(name, "-trace.csv") {
		return nil, nil
	}
	f, err := fsys.Open(strings.TrimSuffix(name, "-trace.csv") + "-dataset.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return f, err
}
