package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"surge/client"
	"surge/openai"
	"surge/trace"
)

// preflightTimeout bounds each request of the preflight: a server still
// loading its model may take this long to answer its first request.
const preflightTimeout = 30 * time.Second

// UnreachableError is what Run returns when a target could not be
// reached or failed the preflight (Config.NoPreflight skips it): no
// request of the schedule was sent and nothing was recorded. Each
// problem is one line naming the server's URL, without credentials, and
// what to do.
type UnreachableError struct{ Problems []string }

func (e UnreachableError) Error() string {
	return "preflight failed (--no-preflight skips it):\n  " + strings.Join(e.Problems, "\n  ")
}

// check is one request the preflight sends: the first model a server
// is sent for each API the workload uses there.
type check struct{ url, api, model string }

// preflight checks, before the schedule starts, that every server of
// to answers: one small request per server and API, sent as the run
// sends them (streamed or not), and one for each model the workload
// sends a server that its /v1/models does not list (llama-server, for
// one, takes any name; vLLM refuses). A failed request of an unlisted
// model names the models the server lists. It returns an
// UnreachableError naming every problem, or nil. Before it, and even
// with NoPreflight, it waits up to cfg.ReadyCheckTimeout for the servers
// to answer (waitReady).
func preflight(ctx context.Context, cfg *Config, in *Workload, to *Servers) error {
	if err := waitReady(ctx, cfg, to); err != nil || cfg.NoPreflight {
		return err
	}
	checks, byURL := preflightChecks(cfg, in, to)
	served := map[string][]string{}
	for _, u := range slices.Sorted(maps.Keys(byURL)) {
		served[u] = listedModels(ctx, cfg.Client, u)
		checks = append(checks, unlisted(checks, u, byURL[u], served[u])...)
	}
	var problems []string
	for _, c := range checks {
		p := checkRequest(ctx, cfg, to.client, c)
		if p == "" {
			continue
		}
		if list := served[c.url]; len(list) > 0 && !slices.Contains(list, c.model) {
			p += fmt.Sprintf("; it lists %s: send one of them with --model (or name it in the spec)", strings.Join(list, ", "))
		}
		problems = append(problems, to.Redact(p))
	}
	if len(problems) > 0 {
		return UnreachableError{problems}
	}
	return nil
}

// unlisted are the checks of the models the workload sends the server
// at u that it does not list, with the API of u's first check.
func unlisted(checks []check, u string, models, listed []string) []check {
	if len(listed) == 0 {
		return nil
	}
	var first *check
	for i := range checks {
		if checks[i].url == u {
			first = &checks[i]
			break
		}
	}
	var out []check
	for _, m := range models {
		if first != nil && !slices.Contains(listed, m) && m != first.model {
			out = append(out, check{url: u, api: first.api, model: m})
		}
	}
	return out
}

// preflightChecks are the requests the preflight sends, in the order of
// the workload, and the models the workload sends each server.
func preflightChecks(cfg *Config, in *Workload, to *Servers) ([]check, map[string][]string) {
	clientModel := map[string]string{}
	for _, c := range in.Header.Clients {
		clientModel[c.Name] = c.Model
	}
	var checks []check
	byURL := map[string][]string{}
	seen := map[check]bool{}
	for _, s := range in.Sessions {
		model := pick(cfg.Model, s.Model, clientModel[s.Client])
		u := to.base
		if r, ok := to.routes[model]; ok {
			u = r
		}
		if u == "" {
			continue // no server: the run records the request as failed
		}
		if !slices.Contains(byURL[u], model) {
			byURL[u] = append(byURL[u], model)
		}
		c := check{url: u, api: pick(cfg.API, s.API, "chat")}
		if !seen[c] {
			seen[c] = true
			c.model = model
			checks = append(checks, c)
		}
	}
	return checks, byURL
}

// listedModels is what the server at base lists at GET /v1/models:
// nothing when it cannot be reached, has none or answers otherwise.
func listedModels(ctx context.Context, cc client.Config, base string) []string {
	hc, err := sideClient(cc, base, probeTimeout)
	if err != nil {
		return nil // the request check says what is wrong
	}
	defer hc.CloseIdleConnections()
	return servedModels(ctx, hc, withoutUser(base))
}

// maxModelsAnswer bounds the /v1/models answer the preflight reads.
const maxModelsAnswer = 1 << 20

// servedModels returns the model ids the server at base lists at GET
// /v1/models: none when it cannot be reached or answers otherwise than
// with a list.
func servedModels(ctx context.Context, hc *http.Client, base string) []string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/v1/models", nil)
	if err != nil {
		return nil
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxModelsAnswer))
	if err != nil || resp.StatusCode != http.StatusOK || json.Unmarshal(body, &list) != nil {
		return nil
	}
	var ids []string
	for _, d := range list.Data {
		if d.ID != "" {
			ids = append(ids, d.ID)
		}
	}
	return ids
}

// checkRequest sends c's small request and says what went wrong, if
// anything, and what to do about it.
func checkRequest(ctx context.Context, cfg *Config, r *client.Router, c check) string {
	ctx, cancel := context.WithTimeout(ctx, preflightTimeout)
	defer cancel()
	req := &client.Request{API: c.api, Model: c.model, Prompt: "Hello", MaxTokens: 1, Stream: !cfg.NoStream}
	if openai.Scores(c.api) {
		req.Documents = []string{"Hello"} // a query scores at least one document
	}
	res := r.Do(ctx, req)
	if res.ErrClass == "" {
		return ""
	}
	return fmt.Sprintf("%s: a 1-token %s request for model %q failed: %s: %s",
		Redact(c.url), c.api, c.model, res.Err, requestHint(res))
}

// requestHint is what to do about a failed preflight request.
func requestHint(res *client.Result) string {
	switch {
	case res.Cause == client.CauseRefused:
		return "not reachable: is the server up at that address? Check --target"
	case res.ErrClass == trace.ErrConnection:
		return "check --target (and --insecure for an untrusted certificate)"
	case res.ErrClass == trace.ErrTimeout:
		return "the server did not answer in time: is it still loading the model?"
	case res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden:
		return "check the key (--api-key-env) or the headers (--header)"
	case res.Status == http.StatusNotFound:
		return "check the model name (--model) and the API (--api " + strings.Join(openai.APIs(), ", ") + ")"
	}
	return "fix the server or the request, or skip this check with --no-preflight"
}
