// Package bundle describes evidence bundles: the directory a run writes,
// with everything needed to check and reproduce its claims.
//
// A bundle holds
//
//	manifest.json        what ran, where, on what, when (Manifest)
//	trace.jsonl          the workload exactly as sent (its workload hash)
//	records.jsonl        one record per request
//	server_metrics.jsonl the target's Prometheus metrics over the run, when scraped
//	report.txt, report.json, report.html
//
// The manifest names every other file with its size and SHA-256, so a
// bundle copied elsewhere can be verified (Bundle.Verify) and re-rendered
// to the same report.json. A run that did not finish leaves a partial
// bundle, which Open reads all the same: an interrupted run's is whole
// and says so, a killed run's has no manifest, reports or end line, and
// a run whose report failed has its records and no manifest (State). No credential is ever written: URLs lose their user
// information (internal/redact.URL) and command lines their secrets (RedactArgs);
// API keys are read from the environment and never recorded.
package bundle
