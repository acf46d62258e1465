package openai

// internKind returns the type and status names of the Responses and
// Messages APIs without allocating, and any other name as a new string.
func internKind(b []byte) string {
	switch string(b) {
	case eventOutputText:
		return eventOutputText
	case eventRefusal:
		return eventRefusal
	case eventReasoningText:
		return eventReasoningText
	case eventSummaryText:
		return eventSummaryText
	case eventArguments:
		return eventArguments
	case eventItemAdded:
		return eventItemAdded
	case eventCompleted:
		return eventCompleted
	case eventIncomplete:
		return eventIncomplete
	case eventFailed:
		return eventFailed
	case eventError:
		return eventError
	case eventMessageStop:
		return eventMessageStop
	case blockToolUse:
		return blockToolUse
	case blockServerTool:
		return blockServerTool
	}
	return internCommon(b)
}

// internCommon returns the other names streams repeat in every event
// without allocating.
func internCommon(b []byte) string {
	for _, k := range commonKinds {
		if string(b) == k {
			return k
		}
	}
	return string(b)
}

// commonKinds are names that appear in most events of a stream but that
// this package never compares.
var commonKinds = [...]string{
	"content_block_delta", "text_delta", "thinking_delta", "input_json_delta", "signature_delta",
	"content_block_start", "content_block_stop", "message_start", "message_delta", "ping",
	"text", "thinking", "message", "end_turn", "max_tokens", "stop_sequence",
	"response.created", "response.in_progress", "response.output_item.done",
	"response.content_part.added", "response.content_part.done", "response.output_text.done",
	"response.reasoning_text.done", "response.function_call_arguments.done",
	"output_text", "reasoning_text", "summary_text", "reasoning", "function_call",
	"in_progress", "completed", "incomplete", "failed", "max_output_tokens",
}
