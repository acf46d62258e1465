package driver

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"surge/openai"
	"surge/trace"
)

// maxSessionErrors bounds how many session problems validate lists one by
// one; a trace of a million bad sessions needs a summary, not a million
// lines.
const maxSessionErrors = 10

// validate reports every problem with cfg and the sessions, joined with
// errors.Join.
func validate(cfg Config, h trace.Header, sessions []*trace.Session) error {
	errs := validateConfig(cfg)
	clients, cerrs := headerClients(h)
	errs = append(errs, cerrs...)
	errs = append(errs, checkOptions(cfg, h.Clients)...)
	if !h.Text && len(sessions) > 0 && cfg.Expand == nil {
		// One line instead of one per session: the whole trace lacks text.
		errs = append(errs, errors.New("the trace has no prompt text (made with surge gen --no-text, or imported as content blocks): surge sim runs it as it is; to send it to a server, generate it with text"))
		return errors.Join(errs...)
	}
	bad := 0
	for i, s := range sessions {
		err := validateSession(cfg, clients, s)
		if err == nil {
			continue
		}
		if bad++; bad <= maxSessionErrors {
			errs = append(errs, fmt.Errorf("session %d: %w", i+1, err))
		}
	}
	if bad > maxSessionErrors {
		errs = append(errs, fmt.Errorf("and %d more sessions with problems", bad-maxSessionErrors))
	}
	return errors.Join(errs...)
}

// validateConfig checks the fields of cfg that have no valid negative or
// missing value.
func validateConfig(cfg Config) []error {
	var errs []error
	if cfg.Client == nil {
		errs = append(errs, errors.New("config: no client to send requests with"))
	}
	if cfg.API != "" && !validAPI(cfg.API) {
		errs = append(errs, fmt.Errorf("config: api %q: want one of %s", cfg.API, strings.Join(openai.APIs(), ", ")))
	}
	if cfg.MaxConcurrency < 0 {
		errs = append(errs, fmt.Errorf("config: max concurrency %d is negative", cfg.MaxConcurrency))
	}
	if cfg.Drop && cfg.MaxConcurrency == 0 {
		errs = append(errs, errors.New("config: drop needs a max concurrency to drop at"))
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"duration", cfg.Duration}, {"drain", cfg.Drain}, {"interrupt drain", cfg.InterruptDrain}, {"spin", cfg.Spin}} {
		if f.d < 0 {
			errs = append(errs, fmt.Errorf("config: %s %v is negative", f.name, f.d))
		}
	}
	if err := cfg.Retry.Check(); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// headerClients indexes the header's clients by name.
func headerClients(h trace.Header) (map[string]trace.ClientInfo, []error) {
	var errs []error
	m := make(map[string]trace.ClientInfo, len(h.Clients))
	for _, c := range h.Clients {
		if _, dup := m[c.Name]; dup {
			errs = append(errs, fmt.Errorf("trace header: client %q appears twice", c.Name))
		}
		if c.Concurrency < 0 {
			errs = append(errs, fmt.Errorf("trace header: client %q: concurrency %d is negative", c.Name, c.Concurrency))
		}
		m[c.Name] = c
	}
	return m, errs
}

// validateSession checks that s can be sent as it stands.
func validateSession(cfg Config, clients map[string]trace.ClientInfo, s *trace.Session) error {
	if s == nil {
		return errors.New("missing (nil)")
	}
	var errs []string
	c, ok := clients[s.Client]
	if !ok {
		errs = append(errs, "its client is not in the trace header")
	}
	if s.AtUS < 0 {
		errs = append(errs, fmt.Sprintf("start offset %dus is negative", s.AtUS))
	}
	if api := pick(cfg.API, s.API); !validAPI(api) {
		errs = append(errs, fmt.Sprintf("api %q: want one of %s", api, strings.Join(openai.APIs(), ", ")))
	}
	if ok && pick(cfg.Model, s.Model, c.Model) == "" {
		errs = append(errs, "no model: the session, its client and the config name none")
	}
	if err := s.Validate(); err != nil {
		errs = append(errs, err.Error())
	}
	api := pick(cfg.API, s.API)
	if s.Tools != nil && !openai.Conversational(api) {
		errs = append(errs, fmt.Sprintf("the session defines %d tools, which only the chat, responses and messages apis send", s.Tools.Count))
	}
	if s.Tools != nil && len(s.Tools.Tools) == 0 {
		errs = append(errs, fmt.Sprintf("the session defines %d tools but the trace holds no definitions (generate it with text)", s.Tools.Count))
	}
	for k, t := range s.Turns {
		if t.Prompt == "" && len(t.Inputs) == 0 && cfg.Expand == nil {
			errs = append(errs, fmt.Sprintf("turn %d has no prompt text", k))
		}
		if !openai.Conversational(api) && (t.Parent != nil || t.SystemID != 0) {
			errs = append(errs, fmt.Sprintf("turn %d is part of a conversation, which only the chat, responses and messages apis can send", k))
		}
		if len(t.Images) > 0 && !openai.Conversational(api) {
			errs = append(errs, fmt.Sprintf("turn %d carries %d images, which only the chat, responses and messages apis send", k, len(t.Images)))
		}
		if len(t.Inputs) > 0 && api != openai.APIEmbeddings {
			errs = append(errs, fmt.Sprintf("turn %d holds a batch of %d inputs, which only the embeddings api sends", k, len(t.Inputs)))
		}
		if len(t.Documents) > 0 && !openai.Scores(api) {
			errs = append(errs, fmt.Sprintf("turn %d holds %d documents, which only the rerank and score apis send", k, len(t.Documents)))
		}
		if len(t.Documents) == 0 && openai.Scores(api) {
			errs = append(errs, fmt.Sprintf("turn %d has no documents, which api %s scores against its query: generate the trace from a client of api %s", k, api, api))
		}
		if t.Parent != nil && c.History == trace.HistoryPinned && s.Turns[*t.Parent].Reply == "" {
			errs = append(errs, fmt.Sprintf("turn %d: the client's history is pinned but turn %d has no reply text", k, *t.Parent))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("client %q index %d: %s", s.Client, s.Index, strings.Join(errs, "; "))
	}
	return nil
}

// validAPI reports whether api names an endpoint the client knows.
func validAPI(api string) bool {
	_, ok := openai.Path(api)
	return ok && api != ""
}

// pick returns the first non-empty string.
func pick(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
