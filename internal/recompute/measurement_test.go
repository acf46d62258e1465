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

// serverTimingsJSON is report.json's comparison of the server's own
// per-request timings with the client's.
type serverTimingsJSON struct {
	Requests int            `json:"requests"`
	TTFT     *timingGapJSON `json:"ttft"`
	E2E      *timingGapJSON `json:"e2e"`
}

type timingGapJSON struct {
	N             int     `json:"n"`
	ClientP50US   float64 `json:"client_p50_us"`
	ServerP50US   float64 `json:"server_p50_us"`
	GapP50US      float64 `json:"gap_p50_us"`
	Contradicting int     `json:"contradicting"`
}

// checkServerTimings recomputes report.json's server_timings from the
// measured records ms: over the successful streamed ones with a server
// timing, nearest-rank medians of the client's and the server's TTFT and
// E2E and of their per-request differences, and how many requests the
// client timed more than 1 ms shorter than the server.
func (c checker) checkServerTimings(got *serverTimingsJSON, ms []record) {
	var n int
	var ttft, e2e [][2]float64
	for _, r := range ms {
		if !isOK(r) || r.NotStreamed || r.ServerTTFTUS <= 0 && r.ServerE2EUS <= 0 {
			continue
		}
		n++
		if r.TTFTUS != nil && *r.TTFTUS > 0 && r.ServerTTFTUS > 0 {
			ttft = append(ttft, [2]float64{float64(*r.TTFTUS), float64(r.ServerTTFTUS)})
		}
		if r.E2EUS != nil && r.ServerE2EUS > 0 {
			e2e = append(e2e, [2]float64{float64(*r.E2EUS), float64(r.ServerE2EUS)})
		}
	}
	if n == 0 {
		if got != nil {
			c.t.Errorf("%s: server_timings %+v, but no record has server timings", c.what, got)
		}
		return
	}
	if got == nil {
		c.t.Errorf("%s: %d requests carry server timings, report.json has no server_timings", c.what, n)
		return
	}
	c.eqInt("server_timings requests", int64(got.Requests), int64(n))
	for _, m := range []struct {
		name  string
		got   *timingGapJSON
		pairs [][2]float64
	}{{"ttft", got.TTFT, ttft}, {"e2e", got.E2E, e2e}} {
		if len(m.pairs) == 0 || m.got == nil {
			if (len(m.pairs) == 0) != (m.got == nil) {
				c.t.Errorf("%s: server_timings %s %+v for %d requests with both timings", c.what, m.name, m.got, len(m.pairs))
			}
			continue
		}
		var cs, ss, gs []float64
		short := 0
		for _, p := range m.pairs {
			cs, ss, gs = append(cs, p[0]), append(ss, p[1]), append(gs, p[0]-p[1])
			if p[0]-p[1] < -1000 {
				short++
			}
		}
		name := "server_timings " + m.name
		c.eqInt(name+" n", int64(m.got.N), int64(len(m.pairs)))
		c.eqFloat(name+" client_p50_us", m.got.ClientP50US, newDist(cs).pct(50))
		c.eqFloat(name+" server_p50_us", m.got.ServerP50US, newDist(ss).pct(50))
		c.eqFloat(name+" gap_p50_us", m.got.GapP50US, newDist(gs).pct(50))
		c.eqInt(name+" contradicting", int64(m.got.Contradicting), int64(short))
	}
}
