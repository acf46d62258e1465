package metrics

import (
	"encoding/json"
	"strings"
	"testing"

	"surge/trace"
)

func TestPrefixCache(t *testing.T) {
	t.Parallel()
	// okRec reports usage.prompt_tokens 100 and no cached tokens.
	miss := okRec("c", 0, 1000, 10_000)
	hit := miss
	hit.CachedTokens = 80
	partial := miss
	partial.ServerInputTokens, partial.CachedTokens = 300, 48
	noUsage := miss
	noUsage.ServerInputTokens = 0
	noUsageCached := noUsage
	noUsageCached.CachedTokens = 64 // llama-server's cache_n without usage
	failed := hit
	failed.ErrorClass, failed.Status = trace.ErrStream, 200
	warm := hit
	warm.Warmup = true
	warmCold := miss
	warmCold.Warmup = true

	tests := []struct {
		name   string
		recs   []trace.Record
		want   PrefixCache
		reason string
	}{
		{"no requests", nil, PrefixCache{}, "nothing measured, nothing reported"},
		{"no usage", []trace.Record{noUsage, noUsage}, PrefixCache{}, "without usage.prompt_tokens there is nothing to divide by"},
		{"cached without usage", []trace.Record{noUsageCached, miss}, PrefixCache{Requests: 1, PromptTokens: 100}, "cached tokens of a request without prompt tokens have no denominator, so are left out"},
		{"not reported", []trace.Record{miss, miss, miss}, PrefixCache{Requests: 3, PromptTokens: 300}, "usage but never cached_tokens: not reported, not a 0% hit rate"},
		{"hits", []trace.Record{miss, hit, partial}, PrefixCache{Requests: 3, PromptTokens: 500, CachedTokens: 128, Reported: true, HitRate: 128.0 / 500}, "token-weighted: Σcached/Σprompt, misses included"},
		{"all hit", []trace.Record{hit}, PrefixCache{Requests: 1, PromptTokens: 100, CachedTokens: 80, Reported: true, HitRate: 0.8}, "one request"},
		{"failed excluded", []trace.Record{miss, failed}, PrefixCache{Requests: 1, PromptTokens: 100}, "a failed request's usage does not count, nor do its cached tokens make the rate reported"},
		{"warmup excluded", []trace.Record{warm, warmCold, hit, miss}, PrefixCache{Requests: 2, PromptTokens: 200, CachedTokens: 80, Reported: true, HitRate: 0.4}, "warmup records count neither way"},
		{"only warmup hits", []trace.Record{warm, miss}, PrefixCache{Requests: 1, PromptTokens: 100}, "hits during warmup alone do not make the measured rate reported"},
	}
	for _, tt := range tests {
		s := Summarize(records(nil, tt.recs...), Options{PerClient: true})
		if got := s.All.Cache; got != tt.want {
			t.Errorf("%s: %+v, want %+v (%s)", tt.name, got, tt.want, tt.reason)
		}
		for _, c := range s.Clients {
			if c.Cache != tt.want {
				t.Errorf("%s: client %s %+v, want the single client's scope to equal all's %+v", tt.name, c.Client, c.Cache, tt.want)
			}
		}
	}
}

func TestPrefixCacheJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cache   PrefixCache
		hasRate bool
		reason  string
	}{
		{"not reported", PrefixCache{Requests: 3, PromptTokens: 300}, false, "a rate nobody measured is not written as 0"},
		{"reported", PrefixCache{Requests: 1, PromptTokens: 100, CachedTokens: 80, Reported: true, HitRate: 0.8}, true, "a measured rate is written"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.cache)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), `"hit_rate"`); got != tt.hasRate {
			t.Errorf("%s: %s has hit_rate %v, want %v (%s)", tt.name, b, got, tt.hasRate, tt.reason)
		}
		if !strings.Contains(string(b), `"reported":`) {
			t.Errorf("%s: %s lacks reported, which must be explicit when false", tt.name, b)
		}
	}
}

func TestPrefixReuse(t *testing.T) {
	t.Parallel()
	rs := records(nil, okRec("c", 0, 1000, 10_000))
	if s := Summarize(rs, Options{}); s.PrefixReuse != nil {
		t.Errorf("implied reuse %+v from a header without one, want nil", s.PrefixReuse)
	}
	rs.Header.PrefixReuse = &trace.Reuse{BlockTokens: 16, Prompt: 1000, Cached: 800}
	s := Summarize(rs, Options{})
	if s.PrefixReuse == nil || *s.PrefixReuse != *rs.Header.PrefixReuse {
		t.Fatalf("implied reuse %+v, want the header's %+v", s.PrefixReuse, rs.Header.PrefixReuse)
	}
	rs.Header.PrefixReuse.Cached = 0
	if s.PrefixReuse.Cached != 800 || s.Header.PrefixReuse.Cached != 800 {
		t.Error("the summary shares the header's reuse with the records; Summarize must keep no reference to them")
	}
}
