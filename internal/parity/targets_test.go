package parity

import (
	"strings"
	"testing"
)

func TestParseTargets(t *testing.T) {
	t.Parallel()
	ts, err := ParseTargets([]string{"http://127.0.0.1:8000/", " new=https://h:9000/v2 "}, Target{APIKey: "k", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Name != "127.0.0.1:8000" || ts[1].Name != "new" || ts[1].BaseURL != "https://h:9000/v2" ||
		ts[0].APIKey != "k" || ts[1].Model != "m" {
		t.Errorf("targets %+v", ts)
	}
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{[]string{"http://127.0.0.1:1"}, "at least twice"},
		{nil, "at least twice"},
		{[]string{"http://127.0.0.1:1", "ftp://u:pw@h"}, "want a URL"},
		{[]string{"http://127.0.0.1:1", "http://127.0.0.1:1/"}, "given twice"},
		{[]string{"a=http://h:1", "a=http://h:2"}, "a is given twice"},
	} {
		_, err := ParseTargets(tt.items, Target{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseTargets(%q) = %v, want an error saying %q", tt.items, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("ParseTargets(%q) shows a password: %v", tt.items, err)
		}
	}
}
