package metrics

import (
	"reflect"
	"testing"

	"surge/trace"
)

// TestErrorMessagesAndRetries: the three most common error messages are
// kept with their counts, and re-sends are counted apart from errors.
func TestErrorMessagesAndRetries(t *testing.T) {
	t.Parallel()
	var recs []trace.Record
	for i, msg := range []string{"b", "a", "c", "a", "d", "b", "a"} {
		r := failRec("c", int64(i), trace.ErrConnection, 0)
		r.Error = msg
		recs = append(recs, r)
	}
	retried := okRec("c", 0, 1000, 2000)
	retried.Retries = 1
	twice := okRec("c", 0, 1000, 2000)
	twice.Retries = 2
	warm := twice
	warm.Warmup = true
	s := Summarize(records(nil, append(recs, retried, twice, warm)...), Options{})
	want := []Message{{"a", 3}, {"b", 2}, {"c", 1}}
	if got := s.All.Errors.Top; !reflect.DeepEqual(got, want) {
		t.Errorf("top messages %v, want %v: by count, ties by text, at most three", got, want)
	}
	if s.All.Errors.Failed != 7 || s.All.Retried != 2 || s.All.Retries != 3 {
		t.Errorf("failed %d, retried %d requests %d times; want 7, 2 and 3: re-sends are not errors and warmup is excluded",
			s.All.Errors.Failed, s.All.Retried, s.All.Retries)
	}
}
