package spec

import (
	"cmp"
	"fmt"
	"regexp"

	"github.com/goccy/go-yaml/ast"

	"surge/arrival"
	"surge/openai"
)

// clientKeys are the keys of a client.
var clientKeys = []string{
	"name", "model", "api", "weight", "rate", "concurrency", "arrival",
	"input", "output", "inputs", "documents", "document", "reasoning", "correlation", "prompt", "content", "language", "sampling", "session", "prefix", "faults",
	"headers", "extra_body", "copy", "duplicates", "images", "dataset",
	"response_format", "n", "stop", "logprobs", "top_logprobs",
}

// clientName is the form of a client name: it appears in traces, records
// and report columns.
var clientName = regexp.MustCompile(`^[a-z0-9_.-]+$`)

// clientSource remembers where a client's parts were written.
type clientSource struct {
	obj     *object
	arrival *object  // nil when the client has no arrival block
	name    ast.Node // the name's value
	item    ast.Node // the list item as written (perhaps an alias)
}

// client reads one client and applies its defaults.
func (d *decoder) client(n ast.Node, path string) (Client, *clientSource) {
	c := Client{API: "chat", Weight: 1, Prompt: "mixed", Session: Session{Kind: KindSingle, History: HistoryLive}}
	o, ok := d.object(n, path)
	if !ok {
		return c, nil
	}
	src := &clientSource{obj: o, item: n}
	d.known(o, clientKeys, "client")
	if field(o, "name", d.str, &c.Name) {
		src.name = o.vals["name"]
		d.check(o, "name", !clientName.MatchString(c.Name),
			"client name %s may only hold a-z, 0-9, _, . and -", show(c.Name))
	} else if !o.has("name") {
		d.errorf(o.node, path, "missing key name (a short label like chat)")
	}
	if !field(o, "model", d.str, &c.Model) && !o.has("model") {
		d.errorf(o.node, path, "missing key model (the model name sent in each request)")
	}
	d.check(o, "model", o.has("model") && c.Model == "", "model is empty")
	field(o, "api", d.choice("api", openai.APIs()), &c.API)
	if field(o, "weight", d.number, &c.Weight) {
		d.check(o, "weight", c.Weight <= 0, "weight must be > 0, got %g", c.Weight)
	}
	d.clientLoad(o, &c, src)
	d.clientLengths(o, &c)
	if field(o, "correlation", d.number, &c.Correlation) {
		d.check(o, "correlation", c.Correlation <= -1 || c.Correlation >= 1, "correlation must be in (−1, 1), got %g", c.Correlation)
	}
	if o.has("reasoning") {
		c.Reasoning = d.lengths(o, "reasoning", "the reasoning length in tokens, like reasoning: 1k")
	}
	field(o, "prompt", d.choice("prompt style", promptStyles()), &c.Prompt)
	if n, p, ok := o.get("content"); ok {
		c.Content = d.contentMix(n, p)
		d.check(o, "content", o.has("prompt"), "give prompt (one style) or content (a mix of styles), not both")
	}
	d.copyFraction(o, &c)
	if n, p, ok := o.get("language"); ok {
		c.Language = d.languageMix(n, p)
	}
	if n, p, ok := o.get("sampling"); ok {
		c.Sampling = d.sampling(n, p)
	}
	if n, p, ok := o.get("session"); ok {
		c.Session = d.session(n, p, c.Dataset != nil)
		d.check(o, "correlation", c.Correlation != 0 && c.Session.Agent != nil && c.Session.Agent.Correlation != nil,
			"the session's correlation draws each episode's task with its steps: drop the client's correlation or the session's")
	}
	if n, p, ok := o.get("prefix"); ok {
		c.Prefix = d.prefix(n, p)
	}
	if n, p, ok := o.get("faults"); ok {
		c.Faults = d.faults(n, p)
		d.check(o, "faults", c.Faults != nil && len(c.Faults.Bursts) > 0 && c.Arrival.Count > 0,
			"a burst adds arrivals, which arrival.count fixes: drop one of them")
	}
	if n, p, ok := o.get("headers"); ok {
		c.Headers = d.headers(n, p)
	}
	if n, p, ok := o.get("extra_body"); ok {
		c.ExtraBody = d.extraBody(n, p)
	}
	if n, p, ok := o.get("duplicates"); ok {
		c.Duplicates = d.duplicates(n, p)
		d.check(o, "duplicates", c.Session.Kind != "" && c.Session.Kind != KindSingle || c.API == openai.APIEmbeddings || openai.Scores(c.API),
			"duplicates repeat single requests that generate text: not %s sessions or api %s", cmp.Or(c.Session.Kind, KindSingle), cmp.Or(c.API, openai.APIChat))
		d.check(o, "duplicates", o.has("dataset"), "duplicates copy synthesised requests, and a dataset client sends its file's prompts: drop one of duplicates and dataset")
	}
	if n, p, ok := o.get("images"); ok {
		c.Images = d.images(n, p)
	}
	d.options(o, &c)
	d.checkAPI(o, &c)
	if c.Dataset != nil {
		d.checkDataset(o, &c)
	}
	return c, src
}

// clientLengths reads a client's dataset, input and output, or for
// embeddings its input and inputs, or for rerank and score its query's
// input and documents.
func (d *decoder) clientLengths(o *object, c *Client) {
	if n, p, ok := o.get("dataset"); ok {
		c.Dataset = d.dataset(n, p)
	}
	const input = "the prompt length in tokens, like input: 1k"
	switch {
	case c.Dataset != nil:
		d.datasetLengths(o, c)
	case c.API == openai.APIEmbeddings:
		c.Input = d.lengths(o, "input", input)
		d.embeddings(o, c)
	case openai.Scores(c.API):
		c.Input = d.lengths(o, "input", input)
		d.scores(o, c)
	default:
		c.Input = d.lengths(o, "input", input)
		c.Output = d.lengths(o, "output", "the output length in tokens, like output: 256")
	}
	d.check(o, "inputs", o.has("inputs") && c.API != openai.APIEmbeddings, "inputs (texts per request) is for api: embeddings")
	for _, k := range []string{"documents", "document"} {
		d.check(o, k, o.has(k) && !openai.Scores(c.API), "%s (%s) is for api: rerank or score", k, documentKeys[k])
	}
}

// checkAPI checks what a client's api allows: conversations and system
// prompts are messages, which only chat, responses and messages send; the
// messages API requires max_tokens.
func (d *decoder) checkAPI(o *object, c *Client) {
	conversation := c.Session.Kind == KindChat || c.Session.Kind == KindAgent
	messages := openai.Conversational(c.API)
	d.check(o, "session", conversation && !messages, "%s sessions need a conversation: api chat, responses or messages", c.Session.Kind)
	d.check(o, "prefix", c.Prefix != nil && !messages, "shared system prompts need messages: api chat, responses or messages")
	d.check(o, "images", c.Images != nil && !messages, "api %s sends text alone: images need api chat, responses or messages", c.API)
	d.check(o, "sampling", c.API == openai.APIMessages && c.Sampling.MaxTokens == MaxTokensNone,
		"api messages requires max_tokens (Anthropic's API refuses a request without it): use max_tokens: output or a number, not none")
}

// embeddings reads what an embeddings client has instead of an output:
// its inputs per request. It generates nothing, so it has no output,
// reasoning or sampling, and it sends texts, not a conversation.
func (d *decoder) embeddings(o *object, c *Client) {
	if o.has("inputs") {
		c.Inputs = d.lengths(o, "inputs", "the texts embedded per request, like inputs: 8")
	}
	for _, k := range []string{"output", "reasoning", "correlation", "sampling"} {
		d.check(o, k, o.has(k), "api embeddings generates no tokens: remove %s (input is each text's length, inputs the texts per request)", k)
	}
	// Conversations are refused with every API that sends no messages.
	d.check(o, "session", c.Session.Kind == KindRAG, "api embeddings sends single requests or batch jobs, not rag sessions")
}

// documentKeys says what each key of a rerank or score client describes.
var documentKeys = map[string]string{"documents": "documents per request", "document": "each document's length"}

// scores reads what a rerank or score client has instead of an output:
// its documents per request and their length, input being the query's.
// It generates nothing, and sends texts, not a conversation.
func (d *decoder) scores(o *object, c *Client) {
	if o.has("documents") {
		c.Documents = d.lengths(o, "documents", "the documents scored per request, like documents: 20")
	}
	if o.has("document") {
		c.Document = d.lengths(o, "document", "each document's length in tokens, like document: 256")
	} else {
		d.errorf(o.node, o.path, "missing key document (each document's length in tokens, like document: 256; input is the query's)")
	}
	for _, k := range []string{"output", "reasoning", "correlation", "sampling"} {
		d.check(o, k, o.has(k), "api %s generates no tokens: remove %s (input is the query's length, documents the documents per request, document each one's length)", c.API, k)
	}
	d.check(o, "session", c.Session.Kind == KindRAG, "api %s sends single requests or batch jobs, not rag sessions", c.API)
}

// clientLoad reads how a client loads the target: rate, concurrency and
// arrival. Their combinations are checked later, in validate.
func (d *decoder) clientLoad(o *object, c *Client, src *clientSource) {
	if field(o, "rate", d.rate, &c.Arrival.Rate) {
		d.check(o, "rate", c.Arrival.Rate <= 0, "rate must be > 0")
	}
	if field(o, "concurrency", d.count, &c.Concurrency) {
		d.countIn(o, "concurrency", c.Concurrency, MaxConcurrency, "spec.MaxConcurrency", warnConcurrency,
			"streams in flight from one client, more than one surge process holds (surge selftest measures this machine)")
	}
	if n, p, ok := o.get("arrival"); ok {
		rate := c.Arrival.Rate
		c.Arrival, src.arrival = d.arrival(n, p)
		c.Arrival.Rate = rate
	}
	if c.Arrival.Process == "" && !o.has("concurrency") {
		c.Arrival.Process = arrival.Poisson
	}
}

// choice returns a reader of a string that must be one of choices.
func (d *decoder) choice(what string, choices []string) func(ast.Node, string) (string, bool) {
	return func(n ast.Node, path string) (string, bool) {
		return d.oneOf(n, path, what, choices)
	}
}

// samplingKeys are the keys of a client's sampling block.
var samplingKeys = []string{"temperature", "top_p", "max_tokens", "exact_output"}

// sampling reads a client's generation settings.
func (d *decoder) sampling(n ast.Node, path string) Sampling {
	var s Sampling
	o, ok := d.object(n, path)
	if !ok {
		return s
	}
	d.known(o, samplingKeys, "sampling")
	var t, p float64
	if field(o, "temperature", d.number, &t) && d.check(o, "temperature", t < 0, "temperature must be ≥ 0, got %g", t) {
		s.Temperature = &t
	}
	if field(o, "top_p", d.number, &p) && d.check(o, "top_p", p <= 0 || p > 1, "top_p must be in (0, 1], got %g", p) {
		s.TopP = &p
	}
	field(o, "max_tokens", d.maxTokens, &s.MaxTokens)
	field(o, "exact_output", d.boolean, &s.ExactOutput)
	// exact_output sends max_tokens = min_tokens = the sampled length, so any
	// other max_tokens contradicts it.
	d.check(o, "max_tokens", s.ExactOutput && s.MaxTokens != MaxTokensOutput,
		"exact_output sends max_tokens equal to the sampled output length; remove max_tokens or exact_output")
	return s
}

// maxTokens reads max_tokens: output, none, or a whole number of tokens, as
// MaxTokensOutput, MaxTokensNone or the number.
func (d *decoder) maxTokens(n ast.Node, path string) (int, bool) {
	s, ok := d.scalar(n, path, "output, none or a number of tokens")
	if !ok {
		return 0, false
	}
	switch s {
	case "output":
		return MaxTokensOutput, true
	case "none":
		return MaxTokensNone, true
	}
	v, err := ParseCount(s)
	switch {
	case err != nil:
		hint := ""
		if c := closest(s, []string{"output", "none"}); c != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", c)
		}
		d.errorf(d.value(n, path), path, "expected output, none or a number of tokens, got %s%s", show(s), hint)
		return 0, false
	case v < 1:
		d.errorf(d.value(n, path), path, "max_tokens must be at least 1")
		return 0, false
	}
	return v, true
}
