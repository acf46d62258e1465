package trace

import "testing"

func TestHeaderValue(t *testing.T) {
	t.Parallel()
	s := &Session{Client: "chat", Index: 7}
	for v, want := range map[string]string{
		"fixed": "fixed", "{session}": "chat-7", "tenant-{client}/{session}": "tenant-chat/chat-7",
	} {
		if got := HeaderValue(v, s); got != want {
			t.Errorf("HeaderValue(%q) = %q, want %q", v, got, want)
		}
		if err := CheckHeaderValue(v); err != nil {
			t.Errorf("CheckHeaderValue(%q): %v", v, err)
		}
	}
	for _, bad := range []string{"{turn}", "a}", "x\ny", "x\x00"} {
		if CheckHeaderValue(bad) == nil {
			t.Errorf("CheckHeaderValue(%q) passed", bad)
		}
	}
}
