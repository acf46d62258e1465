package openai

import (
	"encoding/json"
	"maps"
	"reflect"
	"testing"
)

func TestMergeObject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body, extra, want string
		reason            string
	}{
		{`{"model":"m","max_tokens":4}`, `{}`, `{"model":"m","max_tokens":4}`, "an empty extra changes nothing"},
		{`{"model":"m","max_tokens":4}`, ` {"priority": 1} `, `{"model":"m","max_tokens":4,"priority": 1}`, "a new member goes last"},
		{`{"model":"m","stream_options":{"include_usage":true}}`, `{"stream_options":{"include_usage":true,"continuous_usage_stats":true}}`,
			`{"model":"m","stream_options":{"include_usage":true,"continuous_usage_stats":true}}`, "a member of the same name replaces surge's, once"},
		{`{}`, `{"a":[1,{"b":null}],"c":"d\u00e9"}`, `{"a":[1,{"b":null}],"c":"d\u00e9"}`, "into an empty body"},
		{`{"m\u006fdel":"x","n":1}`, `{"model":"y"}`, `{"n":1,"model":"y"}`, "keys compare decoded"},
	}
	for _, tt := range tests {
		got, err := MergeObject([]byte(tt.body), []byte(tt.extra))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: MergeObject(%s, %s) = %s, %v; want %s", tt.reason, tt.body, tt.extra, got, err, tt.want)
		}
		if !json.Valid(got) || hasDuplicateKeys(got) {
			t.Errorf("%s: %s is not a valid object without repeated names", tt.reason, got)
		}
	}
	for _, bad := range []string{``, `[]`, `"x"`, `{"a":}`, `{"a":1} {}`, `null`} {
		if _, err := MergeObject([]byte(`{"a":1}`), []byte(bad)); err == nil {
			t.Errorf("MergeObject with extra %q succeeded", bad)
		}
		if CheckObject([]byte(bad)) == nil {
			t.Errorf("CheckObject(%q) passed", bad)
		}
	}
}

// FuzzMergeObject checks MergeObject against encoding/json on arbitrary
// objects: the result decodes to body's map with extra's members in their
// place, and never names a member twice.
func FuzzMergeObject(f *testing.F) {
	f.Add([]byte(`{"model":"m","stream":true}`), []byte(`{"stream":false,"x":[1]}`))
	f.Add([]byte(`{}`), []byte(`{"a":{"b":"c"}}`))
	f.Fuzz(func(t *testing.T, body, extra []byte) {
		var b, e map[string]any
		if json.Unmarshal(body, &b) != nil || json.Unmarshal(extra, &e) != nil || b == nil || e == nil ||
			hasDuplicateKeys(body) || hasDuplicateKeys(extra) || CheckObject(body) != nil || CheckObject(extra) != nil {
			return
		}
		got, err := MergeObject(body, extra)
		if err != nil {
			t.Fatalf("MergeObject(%s, %s): %v", body, extra, err)
		}
		var m map[string]any
		if err := json.Unmarshal(got, &m); err != nil || hasDuplicateKeys(got) {
			t.Fatalf("MergeObject(%s, %s) = %s: %v or a name twice", body, extra, got, err)
		}
		want := maps.Clone(b)
		maps.Copy(want, e)
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("MergeObject(%s, %s) = %s, want %v", body, extra, got, want)
		}
	})
}
