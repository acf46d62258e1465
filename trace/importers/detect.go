package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Format names a trace format surge imports.
type Format string

// The formats surge imports.
const (
	FormatAzure    Format = "azure"    // Azure LLM inference traces, 2023 and 2024 CSV
	FormatVidur    Format = "vidur"    // Vidur's splitwise_*.csv re-encoding of Azure 2023
	FormatMooncake Format = "mooncake" // Mooncake (Kimi) JSON Lines with hash_ids
	FormatWEKA     Format = "weka"     // WEKA agentic conversations, a JSON file each
	FormatWEKACSV  Format = "weka-csv" // the WEKA conversations flattened to a CSV row per request
	// FormatWEKASummary is the WEKA per-conversation summary CSV: a row
	// per conversation, expanded into a session of what it implies.
	FormatWEKASummary Format = "weka-summary"
	FormatShareGPT    Format = "sharegpt" // ShareGPT conversations of real text, a JSON array
	FormatBurstGPT    Format = "burstgpt" // BurstGPT request CSV (Timestamp, Model, Request tokens, …)
	FormatServeGen    Format = "servegen" // ServeGen per-client window CSV (no header), requests generated per window
	FormatCSV         Format = "csv"      // any CSV with a header, read by a column mapping (never detected)
	FormatJSONL       Format = "jsonl"    // any JSON Lines, read by a column mapping (never detected)
)

// Formats lists the formats surge imports, in the order help text shows.
var Formats = []Format{FormatAzure, FormatVidur, FormatMooncake, FormatWEKA, FormatWEKACSV, FormatWEKASummary, FormatShareGPT, FormatBurstGPT, FormatServeGen, FormatCSV, FormatJSONL}

// DetectBytes is how much of a file's start Detect needs to see.
const DetectBytes = 64 << 10

// knownCSV maps the lowercased header of a CSV format to its format, or,
// for formats seen but not imported, to why.
var knownCSV = []struct {
	columns []string
	format  Format
	not     string
}{
	{columns: []string{"timestamp", "contexttokens", "generatedtokens"}, format: FormatAzure},
	{columns: []string{"arrived_at", "num_prefill_tokens", "num_decode_tokens"}, format: FormatVidur},
	{columns: []string{"trace_id", "stream", "req_idx", "t_s"}, format: FormatWEKACSV},
	{columns: []string{"trace_id", "models", "block_size", "n_main_requests", "first_in", "last_in"}, format: FormatWEKASummary},
	{columns: []string{"timestamp", "model", "request tokens", "response tokens", "log type"}, format: FormatBurstGPT},
}

// Detect names the format of a file from its first bytes (DetectBytes of
// them suffice): a CSV by the columns of its header line (a ServeGen
// window CSV, which has none, by its first window), a JSON file by the
// keys of its first object: Mooncake's timestamp, input_length and
// output_length, WEKA's block_size and requests, or ShareGPT's
// conversations (its objects in an array or one after another). A file
// in none of the formats, or in one surge recognises but does not
// import, is an error that says what was seen.
func Detect(head []byte) (Format, error) {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if len(head) == 0 {
		return "", fmt.Errorf("empty file")
	}
	if head[0] == '[' {
		if obj := bytes.TrimLeft(head[1:], " \t\r\n"); len(obj) > 0 && obj[0] == '{' {
			return detectJSON(obj)
		}
		return "", fmt.Errorf("a JSON array that does not start with an object; name the format with --format")
	}
	if head[0] == '{' {
		return detectJSON(head)
	}
	return detectCSV(head)
}

// detectCSV names a CSV format by its header line.
func detectCSV(head []byte) (Format, error) {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	var cols []string
	for c := range strings.SplitSeq(string(bytes.TrimRight(line, "\r")), ",") {
		cols = append(cols, strings.ToLower(strings.TrimSpace(c)))
	}
	for _, k := range knownCSV {
		if !containsAll(cols, k.columns) {
			continue
		}
		if k.not != "" {
			return "", fmt.Errorf("header %q: %s", truncate(line), k.not)
		}
		return k.format, nil
	}
	if _, err := parseServeGenWindow(string(bytes.TrimRight(line, "\r"))); err == nil {
		return FormatServeGen, nil
	}
	return "", fmt.Errorf("first line %q is not a header surge knows (Azure TIMESTAMP,ContextTokens,GeneratedTokens; Vidur arrived_at,num_prefill_tokens,num_decode_tokens; WEKA trace_id,stream,req_idx,t_s,…; BurstGPT Timestamp,Model,Request tokens,Response tokens,…,Log Type); name the format with --format", truncate(line))
}

// detectJSON names a JSON format by the top-level keys of the first
// object, as far as head holds it.
func detectJSON(head []byte) (Format, error) {
	keys := topKeys(head)
	switch {
	case containsAll(keys, []string{"timestamp", "input_length", "output_length"}):
		return FormatMooncake, nil
	case containsAll(keys, []string{"block_size", "requests"}):
		return FormatWEKA, nil
	case containsAll(keys, []string{"conversations"}):
		return FormatShareGPT, nil
	case len(keys) > 0 && !slices.ContainsFunc(keys, func(k string) bool { _, err := strconv.ParseFloat(k, 64); return err != nil }):
		return "", fmt.Errorf("a JSON object keyed by times %q: a ServeGen client's length laws (chunk-N-dataset.json), which hold no requests; import the client's chunk-N-trace.csv, which reads them", truncate([]byte(strings.Join(keys, ","))))
	}
	return "", fmt.Errorf("a JSON object with keys %q: not Mooncake (timestamp, input_length, output_length), WEKA (block_size, requests) or ShareGPT (conversations); name the format with --format", keys)
}

// topKeys returns the keys of the first JSON object in data, in order,
// as far as data holds it or until the first syntax error.
func topKeys(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	// open holds a frame per open container: objects alternate a key and
	// a value, so a frame says whether its next token is a key.
	type frame struct{ object, key bool }
	var open []frame
	var keys []string
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		top := len(open) - 1
		if s, ok := tok.(string); ok && top >= 0 && open[top].key {
			if top == 0 {
				keys = append(keys, s)
			}
			open[top].key = false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			open = append(open, frame{object: tok == json.Delim('{'), key: tok == json.Delim('{')})
			continue
		case json.Delim('}'), json.Delim(']'):
			if open = open[:top]; top == 0 {
				return keys
			}
			top--
		}
		// A value ended, scalar or container: in an object a key follows.
		if top >= 0 && open[top].object {
			open[top].key = true
		}
	}
}

// containsAll reports whether have holds every string of want.
func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// truncate shortens a line for an error message.
func truncate(line []byte) string {
	const n = 120
	if len(line) > n {
		return string(line[:n]) + "…"
	}
	return string(line)
}
