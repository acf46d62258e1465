package openai

// promptDetails reads usage.prompt_tokens_details: null or an object whose
// cached_tokens is kept.
func (s *scanner) promptDetails(in *Info) error {
	if s.peek() != '{' {
		return s.skip()
	}
	return s.object(func(key []byte) error {
		if string(key) != "cached_tokens" {
			return s.skip()
		}
		v, ok, err := s.integer()
		if ok {
			in.CachedTokens = v
		}
		return err
	})
}

// surgeTimings reads the surge_timings member: null or an object of
// milliseconds.
func (s *scanner) surgeTimings(in *Info) error {
	if s.peek() != '{' {
		return s.skip()
	}
	in.HasSurgeTimings = true
	t := &in.SurgeTimings
	return s.object(func(key []byte) error {
		switch string(key) {
		case "queued_ms":
			return s.float(&t.QueuedMS)
		case "ttft_ms":
			return s.float(&t.TTFTMS)
		case "e2e_ms":
			return s.float(&t.E2EMS)
		}
		return s.skip()
	})
}

// timings reads llama-server's timings member: null or an object of counts
// and milliseconds.
func (s *scanner) timings(in *Info) error {
	if s.peek() != '{' {
		return s.skip()
	}
	in.HasTimings = true
	t := &in.Timings
	return s.object(func(key []byte) error {
		var dst *int
		switch string(key) {
		case "prompt_ms":
			return s.float(&t.PromptMS)
		case "predicted_ms":
			return s.float(&t.PredictedMS)
		case "cache_n":
			dst = &t.CacheN
		case "prompt_n":
			dst = &t.PromptN
		case "predicted_n":
			dst = &t.PredictedN
		default:
			return s.skip()
		}
		v, ok, err := s.integer()
		if ok {
			*dst = v
		}
		return err
	})
}
