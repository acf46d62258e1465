package openai

// refResponse is what a response object says of its end, as the
// reference reads it.
type refResponse struct {
	status, reason string
	called         bool
}

// responses is the reference of a Responses API event or whole body.
func (r *refRun) responses(o *refObject) error {
	var typ, message, delta string
	var call bool
	var st refResponse
	err := o.each(func(k string, v any, raw []byte) error {
		switch k {
		case "type":
			return refKind(v, &typ)
		case "delta":
			return refKind(v, &delta)
		case "item":
			return r.item(v, false, &call)
		case "response":
			nested, err := refObj(v)
			if err != nil {
				return err
			}
			return nested.each(func(k string, v any, raw []byte) error { return r.responseMember(&st, k, v, raw, false) })
		case "message":
			message, _ = v.(string)
			return nil
		}
		return r.responseMember(&st, k, v, raw, true)
	})
	if err != nil {
		return err
	}
	switch typ {
	case "response.output_text.delta", "response.refusal.delta":
		r.text(delta, true)
	case "response.reasoning_text.delta", "response.reasoning_summary_text.delta":
		r.text(delta, false)
	case "response.function_call_arguments.delta":
		r.in.Answer = r.in.Answer || delta != ""
		r.in.ToolCall = r.in.ToolCall || delta != ""
	case "response.output_item.added":
		if call {
			r.in.Answer, r.in.ToolCall = true, true
			r.in.ToolCalls++
		}
	case "response.completed", "response.incomplete", "response.failed":
		r.in.End = true
	case "error":
		r.in.IsError = true
		if r.in.ErrorMessage == "" {
			r.in.ErrorMessage = message
		}
	}
	if st.status == "failed" {
		r.in.IsError = true
		if r.in.ErrorMessage == "" {
			r.in.ErrorMessage = "response failed"
		}
	}
	finish := map[string]string{"completed": "stop", "incomplete": st.reason, "cancelled": "cancelled"}[st.status]
	switch {
	case st.status == "completed" && st.called:
		finish = "tool_calls"
	case st.status == "incomplete" && st.reason == "max_output_tokens":
		finish = "length"
	case st.status == "incomplete" && st.reason == "":
		finish = "incomplete"
	}
	if finish != "" {
		r.in.FinishReason = finish
	}
	return nil
}

// responseMember reads a member of a response object; with tokens (the
// whole body) its output's text is generated.
func (r *refRun) responseMember(st *refResponse, k string, v any, raw []byte, tokens bool) error {
	switch k {
	case "status":
		return refKind(v, &st.status)
	case "incomplete_details":
		o, err := refObj(v)
		if err != nil {
			return err
		}
		return o.each(func(k string, v any, _ []byte) error {
			if k == "reason" {
				return refKind(v, &st.reason)
			}
			return nil
		})
	case "output":
		items, err := refList(v)
		if err != nil {
			return err
		}
		for _, it := range items {
			var call bool
			if err := r.item(it, tokens, &call); err != nil {
				return err
			}
			st.called = st.called || call
		}
	case "usage":
		return r.responseUsage(v)
	case "error":
		r.errorMember(v, raw)
	case "surge_timings":
		return r.surgeTimings(v)
	}
	return nil
}

// item reads an output item, setting call unless it is null.
func (r *refRun) item(v any, tokens bool, call *bool) error {
	o, err := refObj(v)
	if err != nil || o == nil {
		return err
	}
	var typ string
	err = o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "type":
			return refKind(v, &typ)
		case "content", "summary":
			if !tokens {
				return nil
			}
			parts, err := refList(v)
			if err != nil {
				return err
			}
			for _, p := range parts {
				if err := r.part(p); err != nil {
					return err
				}
			}
		}
		return nil
	})
	*call = typ == "function_call"
	if tokens && *call {
		r.in.Answer, r.in.ToolCall = true, true
		r.in.ToolCalls++
	}
	return err
}

// part reads a content part of a whole response.
func (r *refRun) part(v any) error {
	o, err := refObj(v)
	if err != nil || o == nil {
		return err
	}
	var typ, text, refusal string
	err = o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "type":
			return refKind(v, &typ)
		case "text":
			return refKind(v, &text)
		case "refusal":
			return refKind(v, &refusal)
		}
		return nil
	})
	switch typ {
	case "output_text":
		r.text(text, true)
	case "refusal":
		r.text(refusal, true)
	case "reasoning_text", "summary_text":
		r.text(text, false)
	}
	return err
}

// responseUsage reads a Responses API usage.
func (r *refRun) responseUsage(v any) error {
	o, err := refObj(v)
	if err != nil || o == nil {
		return err
	}
	in := &r.in
	in.HasUsage = true
	return o.each(func(k string, v any, _ []byte) error {
		switch k {
		case "input_tokens":
			return refCount(v, &in.Usage.PromptTokens)
		case "output_tokens":
			return refCount(v, &in.Usage.CompletionTokens)
		case "total_tokens":
			return refCount(v, &in.Usage.TotalTokens)
		case "input_tokens_details":
			return refDetail(v, "cached_tokens", &in.CachedTokens)
		case "output_tokens_details":
			return refDetail(v, "reasoning_tokens", &in.HiddenReasoning)
		}
		return nil
	})
}
