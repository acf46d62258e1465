package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The roles of a message, ShareGPT's or OpenAI's.
const (
	roleUser = iota + 1
	roleAssistant
	roleSystem
)

// roles maps the from (ShareGPT) and role (OpenAI) values, lower case, to
// their roles.
var roles = map[string]int{
	"human": roleUser, "user": roleUser,
	"gpt": roleAssistant, "chatgpt": roleAssistant, "assistant": roleAssistant, "bard": roleAssistant, "bing": roleAssistant,
	"system": roleSystem, "developer": roleSystem,
}

// message is one message of a conversation, in either layout.
type message struct {
	From    string          `json:"from"`
	Value   *string         `json:"value"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// defaultFields are the fields a JSON record's prompt is looked for in,
// in order, when no field is named.
var defaultFields = []string{"conversations", "messages", "prompt", "text"}

// defaultRecord holds the fields of a JSON record Read looks in when no
// field is named; decoding into it skips the others without keeping them.
type defaultRecord struct {
	ID            json.RawMessage `json:"id"`
	Conversations json.RawMessage `json:"conversations"`
	Messages      json.RawMessage `json:"messages"`
	Prompt        json.RawMessage `json:"prompt"`
	Text          json.RawMessage `json:"text"`
}

// objectEntry reads one JSON object: a ShareGPT conversation, OpenAI
// messages, or a record whose field (by default prompt or text) is the
// prompt. An entry with no turns is a record with nothing to send.
func objectEntry(raw []byte, field string) (Entry, error) {
	if field != "" {
		return namedEntry(raw, field)
	}
	var r defaultRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return Entry{}, fmt.Errorf("not a JSON object: %w", err)
	}
	var e Entry
	_ = json.Unmarshal(r.ID, &e.ID) // an id that is not a string is left out
	vals := []json.RawMessage{r.Conversations, r.Messages, r.Prompt, r.Text}
	for k, v := range vals {
		if v == nil {
			continue
		}
		if err := valueEntry(v, &e); err != nil {
			return Entry{}, fmt.Errorf("field %q: %w", defaultFields[k], err)
		}
		return e, nil
	}
	return Entry{}, errors.New(`no field "conversations", "messages", "prompt" or "text": name the prompt's with field`)
}

// namedEntry is objectEntry for a record whose prompt is in field.
func namedEntry(raw []byte, field string) (Entry, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return Entry{}, fmt.Errorf("not a JSON object: %w", err)
	}
	var e Entry
	if id, ok := obj["id"]; ok {
		_ = json.Unmarshal(id, &e.ID)
	}
	v, ok := obj[field]
	if !ok {
		return Entry{}, fmt.Errorf("no field %q", field)
	}
	if err := valueEntry(v, &e); err != nil {
		return Entry{}, fmt.Errorf("field %q: %w", field, err)
	}
	return e, nil
}

// valueEntry reads a prompt's value into e: a string, or a list of
// messages.
func valueEntry(v json.RawMessage, e *Entry) error {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) > 0 && v[0] == '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) != "" {
			e.Turns = []Turn{{Prompt: s}}
		}
		return nil
	case len(v) > 0 && v[0] == '[':
		var msgs []message
		if err := json.Unmarshal(v, &msgs); err != nil {
			return fmt.Errorf("not a list of messages: %w", err)
		}
		return conversation(msgs, e)
	}
	return errors.New("want a string or a list of messages")
}

// conversation reads messages into e: a leading system message is its
// system prompt and leading assistant messages (a greeting no one asked
// for) are passed; then each user message is a turn, its reply the
// assistant message after it. The turns end at a message breaking that
// alternation or an empty one.
func conversation(msgs []message, e *Entry) error {
	rs, texts := make([]int, len(msgs)), make([]string, len(msgs))
	for i := range msgs {
		r, text, err := msgs[i].read()
		if err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		rs[i], texts[i] = r, text
	}
	i := 0
	if len(msgs) > 0 && rs[0] == roleSystem {
		e.System, i = texts[0], 1
	}
	for i < len(msgs) && rs[i] == roleAssistant {
		i++
	}
	for ; i < len(msgs) && rs[i] == roleUser && strings.TrimSpace(texts[i]) != ""; i += 2 {
		t := Turn{Prompt: texts[i]}
		if i+1 < len(msgs) && rs[i+1] == roleAssistant {
			t.Reply = texts[i+1]
		}
		e.Turns = append(e.Turns, t)
		if t.Reply == "" {
			break
		}
	}
	return nil
}

// read returns a message's role and text.
func (m *message) read() (int, string, error) {
	who := m.From
	if who == "" {
		who = m.Role
	}
	r := roles[strings.ToLower(who)]
	if r == 0 {
		return 0, "", fmt.Errorf("from %q: want human, gpt or system (or role user, assistant or system)", who)
	}
	if m.Value != nil {
		return r, *m.Value, nil
	}
	text, err := contentText(m.Content)
	return r, text, err
}

// contentText returns the text of an OpenAI message's content: a string,
// or parts of which the text ones are joined.
func contentText(c json.RawMessage) (string, error) {
	c = bytes.TrimSpace(c)
	if len(c) == 0 || string(c) == "null" {
		return "", nil
	}
	if c[0] == '"' {
		var s string
		err := json.Unmarshal(c, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(c, &parts); err != nil {
		return "", errors.New("content: want a string or a list of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}
