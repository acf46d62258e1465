package harness

import "testing"

func TestJSONObjectFlag(t *testing.T) {
	t.Parallel()
	var j JSONObject
	if err := j.Set(`{"priority": 1}`); err != nil || j.String() != `{"priority": 1}` || j.Type() != "json" {
		t.Errorf("Set: %v, %q", err, j.String())
	}
	for _, bad := range []string{`[1]`, `{`, `1`, ``} {
		if err := j.Set(bad); err == nil {
			t.Errorf("Set(%q) passed", bad)
		}
	}
	if j.String() != `{"priority": 1}` {
		t.Errorf("a refused value replaced the flag's: %q", j.String())
	}
	if err := (Config{ExtraBody: JSONObject(`[2]`)}).Check(); err == nil {
		t.Error("Check passed an extra body that is no object")
	}
}
