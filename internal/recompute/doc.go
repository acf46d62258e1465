// Package recompute holds no code, only tests: they generate runs and
// sweeps with surge, then recompute every figure of report.json and
// sweep.json from records.jsonl with a deliberately simple implementation
// of their own (sorting, nearest ranks, plain sums), written from
// docs/metrics.md and docs/sweep.md rather than from surge's metrics
// package, and check that the text, JSON and HTML renderings agree.
package recompute
