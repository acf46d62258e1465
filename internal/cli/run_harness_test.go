package cli

import (
	"errors"
	"fmt"
	"testing"

	"surge/harness"
)

// TestCLIError: the harness's errors and verdicts map to the exit codes
// surge run has always had.
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
