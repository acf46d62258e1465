package cli

import (
	"errors"
	"fmt"
	"testing"

	"surge/harness"
	"surge/spec"
)

// TestCLIError: the harness's errors and verdicts, and the command
// line's own, map to exit codes that mean one thing each, by type.
func TestCLIError(t *testing.T) {
	t.Parallel()
	other := errors.New("boom")
	tests := []struct {
		reason string
		err    error
		want   int
	}{
		{"no error", nil, exitOK},
		{"an interrupted run", harness.ErrInterrupted, exitInterrupted},
		{"a bad config", harness.ConfigError{Err: errors.New("--gpu: no such GPU")}, exitUsage},
		{"a wrapped bad config", fmt.Errorf("point: %w", harness.ConfigError{Err: other}), exitUsage},
		{"no SLO to fail on", harness.ErrNoSLO, exitUsage},
		{"a spec error", silentError{spec.Errors{{Path: "rate", Msg: "bad"}}}, exitUsage},
		{"invalid specs, already explained", usageError{silentError{other}}, exitUsage},
		{"an unreachable target", harness.UnreachableError{Problems: []string{"http://h: refused"}}, exitUnreachable},
		{"a wrapped unreachable target", fmt.Errorf("point: %w", harness.UnreachableError{}), exitUnreachable},
		{"a run aborted on its errors", harness.AbortedError{Reason: "20 of 20 failed"}, exitUnreachable},
		{"a questionable measurement", harness.QuestionableError{Line: "measurement: questionable"}, exitQuestionable},
		{"an SLO not met", harness.SLOError{Failed: []string{"ttft p99: fail"}}, exitFailure},
		{"nothing succeeded", harness.NoSuccessError{Sent: 3}, exitFailure},
		{"any other failure", other, exitFailure},
	}
	for _, tt := range tests {
		if got := exitCode(cliError(tt.err)); got != tt.want {
			t.Errorf("%s: exit %d, want %d", tt.reason, got, tt.want)
		}
	}
}
