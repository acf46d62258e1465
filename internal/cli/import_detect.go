package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"surge/trace/importers"
)

// detectFormat returns the files' format: forced, or detected from each
// file's first bytes, the same for all; with a column mapping (mapped)
// and no format forced, csv or jsonl by the first file's first byte.
func detectFormat(files []string, force string, mapped bool) (importers.Format, error) {
	if force == "auto" && mapped {
		return detectMapped(files[0])
	}
	if force != "auto" {
		if !slices.Contains(importers.Formats, importers.Format(force)) {
			return "", usageError{fmt.Errorf("--format %q: the formats are auto, %s", force, formatList())}
		}
		return importers.Format(force), nil
	}
	var first importers.Format
	for _, path := range files {
		fmtOf, err := detectFile(path)
		if err != nil {
			return "", err
		}
		if first != "" && fmtOf != first {
			return "", fmt.Errorf("import: %s is %s but %s is %s: import one format at a time", path, fmtOf, files[0], first)
		}
		first = fmtOf
	}
	return first, nil
}

// detectFile names one file's format from its first bytes.
func detectFile(path string) (importers.Format, error) {
	file, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	defer file.Close()
	head, err := bufio.NewReaderSize(file, importers.DetectBytes).Peek(importers.DetectBytes)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return "", fmt.Errorf("import: reading %s: %w", path, err)
	}
	fmtOf, err := importers.Detect(head)
	if err != nil {
		return "", fmt.Errorf("import %s: %w (formats: %s)", path, err, formatList())
	}
	return fmtOf, nil
}

func formatList() string {
	var names []string
	for _, f := range importers.Formats {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// detectMapped names the generic format of a file read by a column
// mapping: jsonl when it starts with an object, else csv.
func detectMapped(path string) (importers.Format, error) {
	file, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	defer file.Close()
	head, err := bufio.NewReader(file).Peek(1 << 10)
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("import: reading %s: %w", path, err)
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if len(head) > 0 && head[0] == '{' {
		return importers.FormatJSONL, nil
	}
	return importers.FormatCSV, nil
}
