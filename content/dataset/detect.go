package dataset

import (
	"bytes"
)

// parquetMagic begins (and ends) every Parquet file.
var parquetMagic = []byte("PAR1")

// Detect names the format of a file from its name's extension (.json:
// ShareGPT, .jsonl or .ndjson: JSON Lines, .csv, .parquet), or else from
// head, its first bytes: Parquet's magic, a JSON array ([: ShareGPT) or
// a JSON object ({: JSON Lines).
func Detect(name string, head []byte) (Format, error) {
	switch ext(name) {
	case ".json":
		return ShareGPT, nil
	case ".jsonl", ".ndjson":
		return JSONL, nil
	case ".csv":
		return CSV, nil
	case ".parquet", ".pq":
		return Parquet, nil
	}
	if bytes.HasPrefix(head, parquetMagic) {
		return Parquet, nil
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(head) > 0 && head[0] == '[':
		return ShareGPT, nil
	case len(head) > 0 && head[0] == '{':
		return JSONL, nil
	}
	return "", errNoFormat
}
