// Package spec holds the workload spec: its Go types, the YAML decoding with
// file positions, validation, and defaults.
//
// Parse reads a spec (docs/spec.md describes the format) by walking the
// goccy/go-yaml AST itself, so that every problem carries file:line:col and
// all of them are reported at once, each with a hint where one helps:
//
//	chat.yaml:7:5: clients[0].arrival.cvv: unknown key (did you mean "cv"?)
//	chat.yaml:9:11: clients[0].rate: expected a rate like 5/s, 300/m or 1200/h, got 5/x (the unit after / is s, sec, m, min, h, hr or d)
//
// A parsed Spec has its defaults filled in and each client's rate resolved;
// Canonical prints it in a fixed form whose hash identifies the workload.
//
// The unit parsers (ParseDuration, ParseRate, ParseCount, ParseNumber) are
// exported for command-line flags, so flags and specs read values alike.
//
// The package touches no files: callers read the spec and pass its bytes, and
// a tokenizer or corpus path is returned as written.
package spec
