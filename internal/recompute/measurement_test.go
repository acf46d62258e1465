package recompute

// measurementJSON is report.json's verdict on the measurement.
type measurementJSON struct {
	Verdict string `json:"verdict"`
	Checks  []struct {
		Name    string `json:"name"`
		OK      bool   `json:"ok"`
		Applies bool   `json:"applies"`
	} `json:"checks"`
}

// checkMeasurement recomputes the measurement checks that need only the
// records and the recomputed figures of all clients, from docs/metrics.md's
// table: run (finished, something sent), client (lag p99 ≤ 10 ms, CPU
// ≤ 90% of the usable cores), errors (≤ 1% failed, ≤ 1% dropped) and
// samples (no SLO short of requests or not judged), and checks that the
// report's outcome of each agrees. The verdict must be valid exactly when
// every reported check passed.
func (c checker) checkMeasurement(got *measurementJSON, rs *records, all scopeFigures) {
	if got == nil {
		c.t.Errorf("%s: report.json has no measurement verdict", c.what)
		return
	}
	want := map[string]bool{
		"run":     rs.End != nil && !rs.End.Interrupted && all.sent > 0,
		"errors":  !(all.sent > 0 && float64(all.failed) > 0.01*float64(all.sent)) && !(all.requests > 0 && float64(all.dropped) > 0.01*float64(all.requests)),
		"client":  clientKeptUp(rs, all),
		"samples": samplesJudged(all),
	}
	valid := true
	for _, ch := range got.Checks {
		valid = valid && ch.OK
		if w, ok := want[ch.Name]; ok && ch.OK != w {
			c.t.Errorf("%s: measurement check %s ok %v, recomputed %v", c.what, ch.Name, ch.OK, w)
		}
		delete(want, ch.Name)
	}
	for name := range want {
		c.t.Errorf("%s: report.json's measurement has no %s check", c.what, name)
	}
	if (got.Verdict == "valid") != valid {
		c.t.Errorf("%s: measurement verdict %q, but its checks all passed: %v", c.what, got.Verdict, valid)
	}
}

// clientKeptUp is the client check: schedule lag p99 (nearest rank, over
// sent measured requests) at most 10 ms, and CPU time over the run's
// duration at most 90% of the CPUs surge could use.
func clientKeptUp(rs *records, all scopeFigures) bool {
	if d := all.lat["lag"]; d.n > 0 && d.pct(99) > 10_000 {
		return false
	}
	e := rs.End
	if e == nil || e.ClientCPUs == 0 || e.ClientCPUUS == 0 || e.DurationUS <= 0 {
		return true
	}
	return float64(e.ClientCPUUS)/float64(e.DurationUS) <= 0.9*float64(e.ClientCPUs)
}

// samplesJudged is the samples check: with measured requests, no SLO is
// short of requests or not judged.
func samplesJudged(all scopeFigures) bool {
	if all.requests == 0 {
		return true
	}
	for _, v := range all.slos {
		if v.verdict == "not enough samples" || v.verdict == "not judged" {
			return false
		}
	}
	return true
}
