package openai

// promptDetails reads usage.prompt_tokens_details: null or an object whose
// cached_tokens is kept.
func (s *scanner) promptDetails(in *Info, name []byte) error {
	if ok, err := s.typed("usage", name, '{'); !ok {
		return err
	}
	return s.object(func(key []byte) error {
		if string(key) != "cached_tokens" {
			return s.skip()
		}
		return s.count("usage.prompt_tokens_details", key, &in.CachedTokens)
	})
}

// completionDetails reads usage.completion_tokens_details: null or an
// object whose reasoning_tokens is kept.
func (s *scanner) completionDetails(in *Info, name []byte) error {
	if ok, err := s.typed("usage", name, '{'); !ok {
		return err
	}
	return s.object(func(key []byte) error {
		if string(key) != "reasoning_tokens" {
			return s.skip()
		}
		return s.count("usage.completion_tokens_details", key, &in.HiddenReasoning)
	})
}

// surgeTimings reads the surge_timings member: null or an object of
// milliseconds.
func (s *scanner) surgeTimings(in *Info) error {
	if ok, err := s.typed("", keySurgeTimings, '{'); !ok {
		return err
	}
	in.HasSurgeTimings = true
	t := &in.SurgeTimings
	return s.object(func(key []byte) error {
		switch string(key) {
		case "queued_ms":
			return s.ms("surge_timings", key, &t.QueuedMS)
		case "ttft_ms":
			return s.ms("surge_timings", key, &t.TTFTMS)
		case "e2e_ms":
			return s.ms("surge_timings", key, &t.E2EMS)
		}
		return s.skip()
	})
}

var (
	keySurgeTimings = []byte("surge_timings")
	keyTimings      = []byte("timings")
)

// ms reads the number member key of the object at path into dst as float
// does; null is skipped and another type refused.
func (s *scanner) ms(path string, key []byte, dst *float64) error {
	if ok, err := s.typed(path, key, '0'); !ok {
		return err
	}
	return s.float(dst)
}

// timings reads llama-server's timings member: null or an object of counts
// and milliseconds.
func (s *scanner) timings(in *Info) error {
	if ok, err := s.typed("", keyTimings, '{'); !ok {
		return err
	}
	in.HasTimings = true
	t := &in.Timings
	return s.object(func(key []byte) error {
		var dst *int
		switch string(key) {
		case "prompt_ms":
			return s.ms("timings", key, &t.PromptMS)
		case "predicted_ms":
			return s.ms("timings", key, &t.PredictedMS)
		case "cache_n":
			dst = &t.CacheN
		case "prompt_n":
			dst = &t.PromptN
		case "predicted_n":
			dst = &t.PredictedN
		default:
			return s.skip()
		}
		return s.count("timings", key, dst)
	})
}
