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
	resent := okRec("c", 0, 1000, 2000)
	resent.Resends = 1
	both := failRec("c", 0, trace.ErrHTTP, 503)
	both.Retries, both.Resends, both.Error = 1, 2, "a"
	s := Summarize(records(nil, append(recs, retried, twice, warm, resent, both)...), Options{})
	want := []Message{{"a", 4}, {"b", 2}, {"c", 1}}
	if got := s.All.Errors.Top; !reflect.DeepEqual(got, want) {
		t.Errorf("top messages %v, want %v: by count, ties by text, at most three", got, want)
	}
	if s.All.Errors.Failed != 8 || s.All.Retried != 3 || s.All.Retries != 4 || s.All.Resent != 2 || s.All.Resends != 3 {
		t.Errorf("failed %d, retried %d requests %d times, re-sent %d on a fresh connection %d times; want 8, 3, 4, 2 and 3: re-sends are not errors, retries and connection re-sends are counted apart, and warmup is excluded",
			s.All.Errors.Failed, s.All.Retried, s.All.Retries, s.All.Resent, s.All.Resends)
	}
}
