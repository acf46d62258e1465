package metrics

import (
	"fmt"
	"math"
	"strings"

	"surge/trace"
)

// Measurement verdicts (Measurement.Verdict).
const (
	MeasurementValid        = "valid"
	MeasurementQuestionable = "questionable"
)

// Names of the measurement checks (Check.Name), in report order.
const (
	CheckRun     = "run"     // the run finished and its file is whole
	CheckClient  = "client"  // surge kept its schedule and had CPU to spare
	CheckTokens  = "tokens"  // the token counts agree, or differ for known reasons
	CheckCache   = "cache"   // the server's prefix cache saw only this run's prompts, as the workload implies
	CheckEngine  = "engine"  // the server's own timings agree with the client's
	CheckErrors  = "errors"  // few enough failures and drops that the survivors represent the run
	CheckSamples = "samples" // enough requests to judge every SLO percentile
)

// VirtualTargetScheme starts the records header's target of a run in
// virtual time (surge sim), whose engine starts empty, so unsalted prompts
// cannot find an earlier run's cache.
const VirtualTargetScheme = "sim://"

// Bounds of the measurement checks.
const (
	// CPUBusyShare is the share of its usable cores above which surge
	// counts as CPU-saturated.
	CPUBusyShare = 0.9
	// CacheTolerance is the largest difference, in hit-rate points (0.10
	// is ten points), allowed between the prefix-cache hit rate the server
	// reports and the reuse the workload implies.
	CacheTolerance = 0.10
	// ErrorRateBound and DropRateBound are the largest shares of failed
	// and dropped measured requests for which the figures of the others
	// still stand for the run.
	ErrorRateBound = 0.01
	DropRateBound  = 0.01
)

// Measurement is the verdict on the measurement itself, apart from what it
// measured: whether the figures can be trusted as a description of the
// server under the intended load. Verdict is MeasurementValid when every
// check passed (or did not apply), else MeasurementQuestionable with one
// reason per failed check.
type Measurement struct {
	Verdict string   `json:"verdict"`
	Reasons []string `json:"reasons,omitempty"`
	Checks  []Check  `json:"checks"`
}

// Check is one measurement check. OK is false when it failed; Applies is
// false when the run had nothing for it to check (then OK is true); Detail
// says what was found in either case.
type Check struct {
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Applies bool   `json:"applies"`
	Detail  string `json:"detail"`
}

// Line is the measurement verdict as one line of a report:
// "measurement: valid" or "measurement: questionable — reason; reason".
func (m *Measurement) Line() string {
	if m == nil {
		return "measurement: not assessed"
	}
	if m.Verdict == MeasurementValid {
		return "measurement: valid"
	}
	return "measurement: questionable — " + strings.Join(m.Reasons, "; ")
}

// Valid reports whether the verdict is MeasurementValid.
func (m *Measurement) Valid() bool { return m != nil && m.Verdict == MeasurementValid }

// Add records the outcome of a check made outside Summarize (the
// engine's timings against the client's, which need the server's
// metrics) and updates the verdict. A check of the same name is replaced.
func (m *Measurement) Add(c Check) {
	for i := range m.Checks {
		if m.Checks[i].Name == c.Name {
			m.Checks[i] = c
			m.settle()
			return
		}
	}
	m.Checks = append(m.Checks, c)
	m.settle()
}

// settle derives the verdict and reasons from the checks.
func (m *Measurement) settle() {
	m.Verdict, m.Reasons = MeasurementValid, nil
	for _, c := range m.Checks {
		if !c.OK {
			m.Verdict = MeasurementQuestionable
			m.Reasons = append(m.Reasons, c.Detail)
		}
	}
}

// assess runs the checks that need only the summary and o.
func assess(s *Summary, o Options) *Measurement {
	m := &Measurement{}
	for _, check := range []func(*Summary, Options) Check{
		runCheck, clientCheck, tokensCheck, cacheCheck,
		func(s *Summary, _ Options) Check { return EngineCheck(s, nil) },
		errorsCheck, samplesCheck,
	} {
		m.Checks = append(m.Checks, check(s, o))
	}
	m.settle()
	return m
}

// pass, fail and skip build checks.
func pass(name, format string, args ...any) Check {
	return Check{Name: name, OK: true, Applies: true, Detail: fmt.Sprintf(format, args...)}
}

func fail(name, format string, args ...any) Check {
	return Check{Name: name, Applies: true, Detail: fmt.Sprintf(format, args...)}
}

func skip(name, format string, args ...any) Check {
	return Check{Name: name, OK: true, Detail: fmt.Sprintf(format, args...)}
}

// runCheck fails a run that did not finish, whose file disagrees with its
// end line, or that measured nothing.
func runCheck(s *Summary, _ Options) Check {
	switch trace.EndingOf(s.End) {
	case trace.EndDied:
		return fail(CheckRun, "the run died before its end line")
	case trace.EndAborted:
		return fail(CheckRun, "the run aborted itself after %d of %d requests were sent", s.End.Sent, s.End.Scheduled)
	case trace.EndInterrupted:
		return fail(CheckRun, "the run was interrupted after %d of %d requests were sent", s.End.Sent, s.End.Scheduled)
	}
	if s.All.Sent == 0 {
		return fail(CheckRun, "no measured request was sent")
	}
	for _, w := range s.Warnings {
		if w.Kind == WarnRun && strings.HasPrefix(w.Text, endLineDisagrees) {
			return fail(CheckRun, "%s", w.Text)
		}
	}
	return pass(CheckRun, "finished: %d of %d scheduled requests sent", s.End.Sent, s.End.Scheduled)
}

// clientCheck fails a run whose schedule lag p99 passed o.LagWarnUS or
// whose client used more than CPUBusyShare of its cores.
func clientCheck(s *Summary, o Options) Check {
	lag, hasLag := s.All.Latency.Lag.At(99)
	if hasLag && lag.Value > float64(o.LagWarnUS) {
		return fail(CheckClient, "surge sent behind schedule (schedule lag p99 %s ms > %s ms)", trimFloat(round3(lag.Value/1000)), trimFloat(float64(o.LagWarnUS)/1000))
	}
	if e := s.End; e != nil && e.ClientCPUs > 0 && e.ClientCPUUS > 0 && s.DurationUS > 0 {
		cores := float64(e.ClientCPUUS) / float64(s.DurationUS)
		if cores > CPUBusyShare*float64(e.ClientCPUs) {
			return fail(CheckClient, "surge was CPU-bound (%s of its %d cores busy on average)", trimFloat(round3(cores)), e.ClientCPUs)
		}
	}
	if !hasLag {
		return skip(CheckClient, "no open-loop schedule to keep")
	}
	return pass(CheckClient, "schedule lag p99 %s ms ≤ %s ms", trimFloat(round3(lag.Value/1000)), trimFloat(float64(o.LagWarnUS)/1000))
}

// tokensCheck fails a run whose token counts disagree for no known
// reason: surge's prompts not of the requested length, or a server
// that counts more output tokens than it was allowed or than it streamed.
func tokensCheck(s *Summary, _ Options) Check {
	if bad := unexplained(s.All.Tokens); len(bad) > 0 {
		return fail(CheckTokens, "token counts disagree: %s", strings.Join(bad, "; "))
	}
	return pass(CheckTokens, "token counts agree, or differ for known reasons")
}

// unexplained words the disagreements of a that no legitimate cause
// (chat templates, BOS and EOS, a model that stops early, several tokens
// per event) explains.
func unexplained(a TokenAudit) []string {
	var bad []string
	for _, c := range a.Comparisons {
		switch {
		case c.Name == "input requested→client" && c.Disagree > 0 && c.Cause != CauseReplies:
			bad = append(bad, fmt.Sprintf("surge's prompts were not the requested length in %d of %d requests", c.Disagree, c.N))
		case c.Name == "input client→server" && c.Cause == CauseTokenizer:
			bad = append(bad, fmt.Sprintf("the server counts prompts with another tokenizer than the workload's (%d of %d requests differ by varying amounts), so its prompts are not the lengths asked", c.Disagree, c.N))
		case c.Name == "output requested→server" && c.More > 0:
			bad = append(bad, fmt.Sprintf("the server counted more output tokens than max_tokens in %d of %d requests", c.More, c.N))
		case c.Name == "output server→chunks" && c.More > 0:
			bad = append(bad, fmt.Sprintf("the server streamed more token events than its usage counts in %d of %d requests", c.More, c.N))
		}
	}
	return bad
}

// cacheCheck fails an unsalted run, and one whose server reports a prefix
// cache hit rate more than CacheTolerance away from the reuse the
// workload implies.
func cacheCheck(s *Summary, _ Options) Check {
	c := &s.All.Cache
	if s.Header.Salt == "" && !strings.HasPrefix(s.Header.Target, VirtualTargetScheme) {
		return fail(CheckCache, "prompts were not salted, so a server may have cached them in an earlier run")
	}
	if !c.Reported || s.PrefixReuse == nil {
		return skip(CheckCache, "salted; the server reported no prefix-cache hits to compare with the workload's")
	}
	implied := s.PrefixReuse.Ratio()
	if d := c.HitRate - implied; math.Abs(d) > CacheTolerance {
		why := "the server evicted or did not share prefixes the workload reuses"
		if d > 0 {
			why = "the server found prompts cached that this run had not sent before"
		}
		return fail(CheckCache, "prefix-cache hit rate %s against %s implied: %s", pctText(c.HitRate), pctText(implied), why)
	}
	return pass(CheckCache, "salted; prefix-cache hit rate %s against %s implied", pctText(c.HitRate), pctText(implied))
}

// errorsCheck fails a run with more than ErrorRateBound failures or
// DropRateBound drops among its measured requests.
func errorsCheck(s *Summary, _ Options) Check {
	e := &s.All.Errors
	switch {
	case e.Rate > ErrorRateBound:
		return fail(CheckErrors, "%s of requests failed (%d), more than %s: the figures describe the survivors", pctText(e.Rate), e.Failed, pctText(ErrorRateBound))
	case e.DropRate > DropRateBound:
		return fail(CheckErrors, "%s of requests were dropped at the concurrency cap (%d), more than %s", pctText(e.DropRate), e.Dropped, pctText(DropRateBound))
	}
	return pass(CheckErrors, "%d failed, %d dropped", e.Failed, e.Dropped)
}

// samplesCheck fails a run with an SLO that too few requests were
// measured to judge.
func samplesCheck(s *Summary, _ Options) Check {
	switch {
	case len(s.All.SLOs) == 0:
		return skip(CheckSamples, "no SLO to judge")
	case s.All.Requests == 0:
		return skip(CheckSamples, "no measured request to judge the SLOs on")
	}
	var short, unjudged []string
	for _, c := range s.All.SLOs {
		switch c.Verdict {
		case VerdictShort:
			short = append(short, fmt.Sprintf("%s %s (%d measured, %d needed)", c.Metric, PercentileName(c.Percentile), c.Requests, c.MinN))
		case VerdictNotJudged:
			unjudged = append(unjudged, fmt.Sprintf("%s %s (%s)", c.Metric, PercentileName(c.Percentile), c.Note))
		}
	}
	switch {
	case len(short) > 0:
		return fail(CheckSamples, "too few requests to judge %s", strings.Join(short, " and "))
	case len(unjudged) > 0:
		return fail(CheckSamples, "cannot judge %s", strings.Join(unjudged, ", "))
	}
	return pass(CheckSamples, "every SLO judged")
}

// round3 rounds v to three decimals.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// pctText formats a fraction as a percentage with one decimal.
func pctText(f float64) string { return trimFloat(math.Round(f*1000)/10) + "%" }
