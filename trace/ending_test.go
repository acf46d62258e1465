package trace

import "testing"

func TestEndingOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		end  *RunEnd
		want Ending
	}{
		{nil, EndDied},
		{&RunEnd{}, EndFinished},
		{&RunEnd{Interrupted: true}, EndInterrupted},
		{&RunEnd{Interrupted: true, Aborted: "20 of the first 20 requests failed"}, EndAborted},
	} {
		if got := EndingOf(c.end); got != c.want {
			t.Errorf("EndingOf(%+v) = %v, want %v", c.end, got, c.want)
		}
	}
}

func TestEndingText(t *testing.T) {
	t.Parallel()
	for _, e := range []Ending{EndFinished, EndAborted, EndInterrupted, EndDied} {
		b, err := e.MarshalText()
		var back Ending
		if err != nil || back.UnmarshalText(b) != nil || back != e {
			t.Errorf("%v: MarshalText %q, %v; read back %v", e, b, err, back)
		}
	}
	var e Ending
	if err := e.UnmarshalText([]byte("crashed")); err == nil {
		t.Error("UnmarshalText took an unknown ending")
	}
}
