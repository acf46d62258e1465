package openai

import (
	"errors"
	"slices"
)

// MergeObject returns the JSON object body with the members of the JSON
// object extra merged in at its top level: a member of extra replaces the
// member of body of the same name (which is dropped, so no name appears
// twice, which some servers refuse), the others are added after body's
// own. It is how a run's extra body fields (vllm bench's --extra-body,
// AIPerf's --extra-inputs) reach every request. An empty extra returns
// body as it is; otherwise the result is a new buffer. Both must be valid
// JSON objects (CheckObject); an invalid one is an error.
func MergeObject(body, extra []byte) ([]byte, error) {
	extraMembers, err := members(extra)
	if err != nil {
		return nil, err
	}
	if len(extraMembers) == 0 {
		return body, nil
	}
	own, err := members(body)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(extra))
	out = append(out, '{')
	for _, m := range own {
		if slices.ContainsFunc(extraMembers, func(e objectMember) bool { return e.key == m.key }) {
			continue
		}
		out = appendMember(out, m.raw)
	}
	for _, m := range extraMembers {
		out = appendMember(out, m.raw)
	}
	return append(out, '}'), nil
}

// CheckObject reports whether b is a single valid JSON object, as
// MergeObject takes it.
func CheckObject(b []byte) error {
	_, err := members(b)
	return err
}

// objectMember is one member of an object: its decoded key and its raw text,
// key and value.
type objectMember struct {
	key string
	raw []byte
}

// appendMember appends one member's raw text, after a comma unless it is
// the first.
func appendMember(dst, raw []byte) []byte {
	if len(dst) > 1 {
		dst = append(dst, ',')
	}
	return append(dst, raw...)
}

// errNotObject is data that is not a JSON object.
var errNotObject = errors.New("want a JSON object like {\"priority\": 1}")

// members lists the members of the JSON object b in order.
func members(b []byte) ([]objectMember, error) {
	s := scanner{b: b}
	if s.peek() != '{' {
		return nil, errNotObject
	}
	var out []objectMember
	err := s.object(func(key []byte) error {
		start := s.i
		if err := s.skip(); err != nil {
			return err
		}
		out = append(out, objectMember{key: string(key), raw: append(appendString(nil, string(key)), ':')})
		last := &out[len(out)-1]
		last.raw = append(last.raw, b[start:s.i]...)
		return nil
	})
	if err == nil {
		err = s.end()
	}
	return out, err
}
