package parity

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"surge/internal/redact"
)

// Defaults applied to zero fields of Config.
const (
	// DefaultMaxTokens caps each answer.
	DefaultMaxTokens = 128
	// DefaultConcurrency is the requests in flight per target.
	DefaultConcurrency = 8
)

// Target is one server to probe. Name labels it in results (empty means
// its URL without credentials); BaseURL is
// its root (without /v1); APIKey, when set, is sent as a bearer token and
// never recorded; an empty Model means the first of GET /v1/models;
// Header is sent with every request, its credential headers' values
// never recorded.
type Target struct {
	Name    string
	BaseURL string
	APIKey  string
	Model   string
	Header  http.Header
}

// Config configures Run. Targets needs at least two entries, the first
// being the base.
type Config struct {
	Targets []Target
	// Prompts are the prompts to send. When nil, Run sends NumPrompts of
	// the fixed prompts (Prompts), the longest PromptTokens long, made
	// shorter to fit the smallest context a target reports (FitPromptTokens).
	Prompts []string
	// NumPrompts is how many fixed prompts to send; ≤ 0 means
	// DefaultPrompts.
	NumPrompts int
	// PromptTokens is the length of the longest fixed prompt; ≤ 0 means
	// DefaultPromptTokens.
	PromptTokens int
	// MaxTokens caps each answer; ≤ 0 means DefaultMaxTokens.
	MaxTokens int
	// Concurrency is the requests in flight per target (targets are
	// probed at the same time); ≤ 0 means DefaultConcurrency.
	Concurrency int
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
}

// Token is one output token and its log probability, as the OpenAI
// chat logprobs.content entries carry them.
type Token struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// Answer is one target's answer to one prompt. Error is set, and the
// other fields empty, when the request failed.
type Answer struct {
	Text             string  `json:"text"`
	CompletionTokens int     `json:"completion_tokens"`
	FinishReason     string  `json:"finish_reason"`
	Tokens           []Token `json:"logprobs,omitempty"`
	Error            string  `json:"error,omitempty"`
}

// TargetResult is what one target answered. URL has no credentials.
type TargetResult struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	Model string `json:"model"`
	// Context is the most tokens, prompt and output, the target said one
	// request may hold (see the package doc); 0 when it did not say.
	Context int `json:"context,omitempty"`
	// Logprobs reports whether logprobs were asked for (after any retry).
	Logprobs bool     `json:"logprobs"`
	Notes    []string `json:"notes,omitempty"`
	// Answers has one entry per prompt, in prompt order.
	Answers []Answer `json:"answers"`
}

// Result is a whole probe: each target's answers and each candidate's
// comparison with the base, Targets[0].
type Result struct {
	Prompts   int `json:"prompts"`
	MaxTokens int `json:"max_tokens"`
	// PromptTokens is the length of the longest fixed prompt sent, 0 when
	// the caller gave the prompts.
	PromptTokens int `json:"prompt_tokens,omitempty"`
	// Notes say how the prompts were fitted to the targets.
	Notes      []string       `json:"notes,omitempty"`
	Targets    []TargetResult `json:"targets"`
	Candidates []Comparison   `json:"candidates"`
}

// Run probes every target with every prompt and compares each candidate
// with the base. Failed requests are recorded in the answers; Run fails
// only on a bad Config or when ctx ends.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	res := &Result{MaxTokens: cfg.MaxTokens, Targets: make([]TargetResult, len(cfg.Targets))}
	eps := make([]endpoint, len(cfg.Targets))
	var wg sync.WaitGroup
	for i, t := range cfg.Targets {
		eps[i], _ = newEndpoint(cfg.Client, t) // validated
		wg.Go(func() { res.Targets[i] = discover(ctx, eps[i], t) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parity probe: %w", err)
	}
	prompts := cfg.Prompts
	if prompts == nil {
		var err error
		if prompts, err = fixedPrompts(cfg, res); err != nil {
			return nil, err
		}
	}
	res.Prompts = len(prompts)
	for i := range res.Targets {
		wg.Go(func() { probe(ctx, cfg, eps[i], &res.Targets[i], prompts) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parity probe: %w", err)
	}
	for _, c := range res.Targets[1:] {
		res.Candidates = append(res.Candidates, Compare(res.Targets[0], c))
	}
	return res, nil
}

// withDefaults fills the zero fields of cfg.
func (cfg Config) withDefaults() Config {
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.NumPrompts <= 0 {
		cfg.NumPrompts = DefaultPrompts
	}
	if cfg.PromptTokens <= 0 {
		cfg.PromptTokens = DefaultPromptTokens
	}
	if cfg.Client == nil {
		cfg.Client = http.DefaultClient
	}
	return cfg
}

// validate reports every problem of cfg.
func (cfg Config) validate() error {
	var errs []error
	if len(cfg.Targets) < 2 {
		errs = append(errs, fmt.Errorf("parity: need at least 2 targets, got %d", len(cfg.Targets)))
	}
	if cfg.Prompts != nil && len(cfg.Prompts) == 0 {
		errs = append(errs, errors.New("parity: no prompts"))
	}
	for _, t := range cfg.Targets {
		if _, err := newEndpoint(nil, t); err != nil {
			errs = append(errs, fmt.Errorf("parity: %w", err))
		}
	}
	return errors.Join(errs...)
}

// fixedPrompts builds cfg.NumPrompts fixed prompts, the longest
// cfg.PromptTokens long or shorter, to fit the smallest context of the
// targets, and notes in res when they were made shorter.
func fixedPrompts(cfg Config, res *Result) ([]string, error) {
	longest := cfg.PromptTokens
	for _, t := range res.Targets {
		if t.Context == 0 {
			continue
		}
		if cfg.MaxTokens >= t.Context {
			res.Notes = append(res.Notes, fmt.Sprintf("--max-tokens %d leaves no room for a prompt in %s's context of %d tokens: lower it", cfg.MaxTokens, t.Name, t.Context))
		}
		if fit := FitPromptTokens(t.Context, cfg.MaxTokens); fit < longest {
			longest = fit
			res.Notes = append(res.Notes, fmt.Sprintf("prompts shortened to at most %d tokens (from %d) to fit %s's context of %d tokens with --max-tokens %d",
				fit, cfg.PromptTokens, t.Name, t.Context, cfg.MaxTokens))
		}
	}
	res.PromptTokens = longest
	return Prompts(cfg.NumPrompts, longest)
}

// discover names target t and asks it for its model (when t has none)
// and its context. A target whose model cannot be learned has every
// answer failed by probe.
func discover(ctx context.Context, e endpoint, t Target) TargetResult {
	tr := TargetResult{Name: t.Name, URL: redact.URL(t.BaseURL), Model: t.Model, Logprobs: true}
	if tr.Name == "" {
		tr.Name = tr.URL
	}
	m, n, err := e.info(ctx, t.Model)
	switch {
	case err != nil && t.Model == "":
		tr.Notes = append(tr.Notes, err.Error())
	case err == nil:
		tr.Model, tr.Context = m, n
	}
	return tr
}

// probe asks tr's target every prompt. The first prompt goes alone, so
// that a target rejecting logprobs is found once and asked without them
// from then on; the rest go Concurrency at a time. A target without a
// model fails every prompt with the reason discover noted.
func probe(ctx context.Context, cfg Config, e endpoint, tr *TargetResult, prompts []string) {
	tr.Answers = make([]Answer, len(prompts))
	if tr.Model == "" {
		for i := range tr.Answers {
			tr.Answers[i].Error = tr.Notes[0]
		}
		return
	}
	a, err := e.ask(ctx, tr.Model, prompts[0], cfg.MaxTokens, true)
	if rejectsLogprobs(err) {
		tr.Logprobs = false
		tr.Notes = append(tr.Notes, "rejected logprobs ("+err.Error()+"); asked without them")
		a, err = e.ask(ctx, tr.Model, prompts[0], cfg.MaxTokens, false)
	}
	tr.Answers[0] = answerOf(a, err)
	// A later rejection (the first prompt failed otherwise) is retried
	// for that prompt alone; retried counts them.
	var retried atomic.Int64
	sem := make(chan struct{}, cfg.Concurrency)
	var wg sync.WaitGroup
	for i := 1; i < len(prompts); i++ {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			a, err := e.ask(ctx, tr.Model, prompts[i], cfg.MaxTokens, tr.Logprobs)
			if tr.Logprobs && rejectsLogprobs(err) {
				retried.Add(1)
				a, err = e.ask(ctx, tr.Model, prompts[i], cfg.MaxTokens, false)
			}
			tr.Answers[i] = answerOf(a, err)
		})
	}
	wg.Wait()
	if n := retried.Load(); n > 0 {
		tr.Notes = append(tr.Notes, fmt.Sprintf("rejected logprobs on %d prompts; asked those without them", n))
	}
	if tr.Logprobs && retried.Load() == 0 && !anyTokens(tr.Answers) {
		tr.Notes = append(tr.Notes, "logprobs asked for but not returned")
	}
}

// answerOf folds a request's error into its answer; a refusal for
// length says so.
func answerOf(a Answer, err error) Answer {
	switch {
	case refusedForLength(err):
		return Answer{Error: tooLongPrefix + err.Error()}
	case err != nil:
		return Answer{Error: err.Error()}
	}
	return a
}

// anyTokens reports whether some answer carries logprobs, or none
// succeeded (so none could).
func anyTokens(as []Answer) bool {
	ok := false
	for _, a := range as {
		if len(a.Tokens) > 0 {
			return true
		}
		ok = ok || a.Error == ""
	}
	return !ok
}
