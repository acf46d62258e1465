package openai

// rerank reads a rerank response (vLLM's, Cohere's and Jina's shape): the
// results, each counted in Info.Scores when its relevance_score is a
// number, the usage, and an error body as chat's. A usage that gives
// total_tokens alone (vLLM's, Jina's) gives the prompt too, since a
// rerank request generates nothing.
func (s *scanner) rerank() (Info, error) {
	in, err := s.pooled("results", "relevance_score")
	promptFromTotal(&in)
	return in, err
}

// scores reads a response of vLLM's score API: data, each element counted
// in Info.Scores when its score is a number, the usage and an error body
// as chat's.
func (s *scanner) scores() (Info, error) {
	in, err := s.pooled("data", "score")
	promptFromTotal(&in)
	return in, err
}

// score reads one element of a list of scores (null or an object, at
// path), counting it in Info.Scores when its member named member is a
// number.
func (s *scanner) score(in *Info, path []byte, member string) error {
	if ok, err := s.typed("", path, '{'); !ok {
		return err
	}
	return s.object(func(key []byte) error {
		if string(key) != member {
			return s.skip()
		}
		if ok, err := s.typed(pathName(path), key, '0'); !ok {
			return err
		}
		in.Scores++
		return s.skip()
	})
}

// promptFromTotal makes a usage's total the prompt's when it gives no
// prompt_tokens: a request that generates nothing prompts them all.
func promptFromTotal(in *Info) {
	if in.HasUsage && in.Usage.PromptTokens == 0 {
		in.Usage.PromptTokens = in.Usage.TotalTokens
	}
}

var keyResults = []byte("results[]")

// pathName is the path of a list's elements as a string, without
// allocating for the lists score reads.
func pathName(path []byte) string {
	if string(path) == "results[]" {
		return "results[]"
	}
	return "data[]"
}
