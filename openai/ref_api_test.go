package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// This file is DecodeAPI's specification for the responses, messages and
// embeddings APIs, written with encoding/json: the data is decoded into
// ordered generic values (objects keep their members in order, so a
// member named twice reads as the scanner reads it, the last one
// winning) and the same members are read.

// refObject is a JSON object with its members in order, and each
// member's raw text.
type refObject struct {
	keys []string
	vals []any
	raws [][]byte
}

// refMembers decodes one JSON value of valid data into ordered values:
// *refObject, []any, string, json.Number, bool or nil.
func refMembers(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, errors.New("invalid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return refValue(dec, data)
}

// refValue reads the next value of dec, which reads data.
func refValue(dec *json.Decoder, data []byte) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &refObject{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			start := dec.InputOffset()
			v, err := refValue(dec, data)
			if err != nil {
				return nil, err
			}
			raw := bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n:")
			o.keys, o.vals, o.raws = append(o.keys, k.(string)), append(o.vals, v), append(o.raws, raw)
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := refValue(dec, data)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}

// errRefType is a member of the wrong type, as Decode's *TypeError.
var errRefType = errors.New("a member of the wrong type")

// refRun is what a reference decoding collects.
type refRun struct {
	in                Info
	answer, reasoning strings.Builder
}

// refDecodeAPI is DecodeAPI's reference; refDecodeAPIText also returns
// the text DecodeAPIText appends.
func refDecodeAPI(api string, data []byte) (Info, error) {
	in, _, _, err := refDecodeAPIText(api, data)
	return in, err
}

func refDecodeAPIText(api string, data []byte) (Info, string, string, error) {
	switch api {
	case APIResponses, APIMessages, APIEmbeddings, APIRerank, APIScore:
	default:
		in, err := refDecode(data)
		return in, "", "", err
	}
	v, err := refMembers(data)
	if err != nil {
		return Info{}, "", "", err
	}
	o, ok := v.(*refObject)
	if !ok {
		return Info{}, "", "", errors.New("not an object")
	}
	var r refRun
	switch api {
	case APIResponses:
		err = r.responses(o)
	case APIMessages:
		err = r.messages(o)
	case APIRerank:
		err = r.scores(o, "results", "relevance_score")
	case APIScore:
		err = r.scores(o, "data", "score")
	default:
		err = r.embeddings(o)
	}
	if err != nil {
		return Info{}, "", "", err
	}
	return r.in, r.answer.String(), r.reasoning.String(), nil
}

// refKind reads a string member into dst: null leaves it, another type
// is an error.
func refKind(v any, dst *string) error {
	switch s := v.(type) {
	case nil:
	case string:
		*dst = s
	default:
		return errRefType
	}
	return nil
}

// refObj is v as an object, nil for null, or an error.
func refObj(v any) (*refObject, error) {
	switch o := v.(type) {
	case nil:
		return nil, nil
	case *refObject:
		return o, nil
	}
	return nil, errRefType
}

// refList is v as an array, nil for null, or an error.
func refList(v any) ([]any, error) {
	switch a := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return a, nil
	}
	return nil, errRefType
}

// refCount reads a count: a number that fits an int is stored, another
// number ignored, null skipped, another type an error.
func refCount(v any, dst *int) error {
	switch v.(type) {
	case nil:
		return nil
	case json.Number:
		if n, ok := refIntOK(v); ok {
			*dst = n
		}
		return nil
	}
	return errRefType
}

// refMS reads a number of milliseconds as Decode's float rule does.
func refMS(v any, dst *float64) error {
	switch n := v.(type) {
	case nil:
		return nil
	case json.Number:
		if f, err := n.Float64(); err == nil {
			*dst = f
		}
		return nil
	}
	return errRefType
}

// each calls f with the members of o (nil: none) in order, stopping at
// an error.
func (o *refObject) each(f func(k string, v any, raw []byte) error) error {
	if o == nil {
		return nil
	}
	for i, k := range o.keys {
		if err := f(k, o.vals[i], o.raws[i]); err != nil {
			return err
		}
	}
	return nil
}

// errorMember mirrors Decode's error member: null and false are no
// error, a string is the message, an object's message member is, and
// anything else is an error quoted raw.
func (r *refRun) errorMember(v any, raw []byte) {
	switch e := v.(type) {
	case nil:
	case bool:
		if e {
			r.in.IsError, r.in.ErrorMessage = true, "true"
		}
	case string:
		r.in.IsError, r.in.ErrorMessage = true, e
	case *refObject:
		r.in.IsError = true
		_ = e.each(func(k string, v any, _ []byte) error {
			if s, _ := v.(string); k == "message" && s != "" {
				r.in.ErrorMessage = s
			}
			return nil
		})
	default:
		r.in.IsError, r.in.ErrorMessage = true, string(raw)
	}
}

// surgeTimings mirrors Decode's surge_timings member.
func (r *refRun) surgeTimings(v any) error {
	o, err := refObj(v)
	if err != nil || o == nil {
		return err
	}
	r.in.HasSurgeTimings = true
	t := &r.in.SurgeTimings
	return o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "queued_ms":
			return refMS(v, &t.QueuedMS)
		case "ttft_ms":
			return refMS(v, &t.TTFTMS)
		case "e2e_ms":
			return refMS(v, &t.E2EMS)
		}
		return nil
	})
}

// text notes a non-empty string as answer or reasoning.
func (r *refRun) text(s string, answer bool) {
	switch {
	case s == "":
	case answer:
		r.in.Answer = true
		r.answer.WriteString(s)
	default:
		r.in.Reasoning = true
		r.reasoning.WriteString(s)
	}
}

// detail reads a details object's count member name into dst.
func refDetail(v any, name string, dst *int) error {
	o, err := refObj(v)
	if err != nil {
		return err
	}
	return o.each(func(k string, v any, _ []byte) error {
		if k == name {
			return refCount(v, dst)
		}
		return nil
	})
}
