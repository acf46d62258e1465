// Package scrape records an inference server's Prometheus metrics during
// a run and reads them back aligned with the client's timeline.
//
// Run GETs the target's metrics endpoint (DefaultURL: <target>/metrics)
// every Config.Interval until its context ends, parses each answer with
// prometheus/common's text parser (OpenMetrics text is reduced to the
// text format first), keeps the Known families (vLLM, SGLang and
// llama.cpp names for running and waiting requests, KV-cache usage,
// prefix-cache hits and queries, preemptions, token counters and the
// engine-side TTFT/ITL/E2E/queue-time histograms) plus those the user
// lists in Config.Keep, and writes one JSON line per scrape. A failed
// scrape is a line with an error, never the end of the run.
//
// # File format (server_metrics.jsonl in a run directory)
//
// The first line is a Header:
//
//	{"format":"surge-server-metrics","version":1,"url":"http://h:8000/metrics",
//	 "start":"2025-06-01T12:00:00.123456789Z","interval_us":1000000}
//
// then one Scrape per line, in time order. at_us is when the GET was sent,
// in µs since start (the run's start, so it lines up with the at/sent
// offsets of records.jsonl); took_us is how long the answer took:
//
//	{"at_us":1000012,"took_us":2140,"samples":[
//	 {"name":"vllm:num_requests_running","type":"gauge",
//	  "labels":{"engine":"0","model_name":"m"},"value":12},
//	 {"name":"vllm:prefix_cache_hits_total","type":"counter","labels":{…},"value":51200},
//	 {"name":"vllm:time_to_first_token_seconds","type":"histogram","labels":{…},
//	  "histogram":{"le":[0.001,0.005,…,2560,"+Inf"],"cum":[0,3,…,40,40],"sum":2.93,"count":40}}]}
//	{"at_us":2000031,"took_us":3001200,"error":"scraping: Get …: context deadline exceeded"}
//
// Families keep their exposed names (a counter from Python's
// prometheus_client ends in _total); labels are as exposed. A histogram's
// "le" holds the bucket upper bounds ascending, ending "+Inf", and "cum"
// the cumulative counts (observations ≤ le), as in the exposition; a
// summary has "q"/"v" quantiles with "sum" and "count". Values that are
// NaN or infinite are written as the strings "NaN", "+Inf", "-Inf".
// Samples are sorted by name and labels. A cut-short last line (an
// interrupted run) is tolerated by Read.
//
// # Views
//
// Read returns a Series. Series.State gives running/waiting requests,
// KV-cache usage and the prefix-cache hit rate at each scrape, from
// whichever engine's names are present. Series.Family names the
// engine-side TTFT, ITL, E2E or queue-time histogram, and
// Series.HistogramQuantiles estimates its quantiles over a window of the
// run from the difference of the cumulative buckets at two scrapes, with
// linear interpolation within a bucket as Prometheus' histogram_quantile
// does (see BucketQuantile), with the bucket each quantile fell in
// (BucketOf: the estimate is only known to lie there) and the window's
// exact mean (Quantiles.Mean). Comparing engine-side TTFT with the client's
// over the same window isolates what the engine does not see: the network
// and the client's own overhead (plus, for vLLM, the API server's
// tokenisation and queueing before the engine core records arrival).
package scrape
