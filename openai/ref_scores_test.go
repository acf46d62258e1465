package openai

import "encoding/json"

// This file is DecodeAPI's specification for the rerank and score APIs,
// written on refMembers' ordered values as ref_api_test.go's.

// scores is the reference of a rerank response (list "results", member
// "relevance_score") or a score response (list "data", member "score").
func (r *refRun) scores(o *refObject, list, member string) error {
	var objectError bool
	var message string
	err := o.each(func(k string, v any, raw []byte) error {
		switch k {
		case list:
			items, err := refList(v)
			if err != nil {
				return err
			}
			for _, it := range items {
				if err := r.scoreItem(it, member); err != nil {
					return err
				}
			}
		case "usage":
			return r.chatUsage(v)
		case "surge_timings":
			return r.surgeTimings(v)
		case "error":
			r.errorMember(v, raw)
		case "object":
			s, _ := v.(string)
			objectError = s == "error"
		case "message":
			message, _ = v.(string)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if objectError {
		r.in.IsError = true
		if r.in.ErrorMessage == "" {
			r.in.ErrorMessage = message
		}
	}
	if r.in.HasUsage && r.in.Usage.PromptTokens == 0 {
		r.in.Usage.PromptTokens = r.in.Usage.TotalTokens
	}
	return nil
}

// scoreItem reads one element of a list of scores.
func (r *refRun) scoreItem(v any, member string) error {
	o, err := refObj(v)
	if err != nil {
		return err
	}
	return o.each(func(k string, v any, _ []byte) error {
		if k != member {
			return nil
		}
		switch v.(type) {
		case nil:
		case json.Number:
			r.in.Scores++
		default:
			return errRefType
		}
		return nil
	})
}
