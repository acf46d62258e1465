package openai

// embeddings reads an embeddings response: the vectors in data (each an
// array of numbers or a base64 string), the usage, and an error body as
// chat's.
func (s *scanner) embeddings() (Info, error) { return s.pooled("data", "embedding") }

// pooled reads the body of a response of a pooling API (embeddings,
// rerank, score): each element of its list member, whose member named
// member holds the vector or the score, the usage, surge_timings, and an
// error body as chat's.
func (s *scanner) pooled(list, member string) (Info, error) {
	var in Info
	var objectError bool
	var message string
	err := s.object(func(key []byte) error {
		switch string(key) {
		case list:
			if ok, err := s.typed("", key, '['); !ok {
				return err
			}
			return s.array(func() error { return s.item(&in, member) })
		case "usage":
			return s.usage(&in)
		case "surge_timings":
			return s.surgeTimings(&in)
		case "error":
			return s.errorMember(&in)
		case "object":
			var err error
			objectError, err = s.isString("error")
			return err
		case "message":
			var err error
			message, err = s.stringValue()
			return err
		}
		return s.skip()
	})
	if err != nil {
		return Info{}, err
	}
	if objectError {
		in.IsError = true
		if in.ErrorMessage == "" {
			in.ErrorMessage = message
		}
	}
	return in, nil
}

// item reads one element of a pooling response's list: a vector, or
// the score in member.
func (s *scanner) item(in *Info, member string) error {
	switch member {
	case "embedding":
		return s.embedding(in)
	case "relevance_score":
		return s.score(in, keyResults, member)
	}
	return s.score(in, keyData, member)
}

// embedding reads one element of data (null or an object), counting it
// in Info.Embeddings when its embedding is an array or a string.
func (s *scanner) embedding(in *Info) error {
	if ok, err := s.typed("", keyData, '{'); !ok {
		return err
	}
	return s.object(func(key []byte) error {
		if string(key) != "embedding" {
			return s.skip()
		}
		c := s.peek()
		switch {
		case c == '[' || c == '"':
			in.Embeddings++
			return s.skip()
		case c == 'n':
			return s.literal("null")
		case kindName(c) == "":
			return s.fail("value")
		}
		return &TypeError{Member: "data[].embedding", Want: "an array, a string or null", Got: kindName(c)}
	})
}

var keyData = []byte("data[]")
