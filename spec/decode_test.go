package spec

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"surge/arrival"
)

// want is one expected problem: "line:col: path" exactly (path may be
// empty), and a piece of its message.
type want struct{ at, msg string }

// checkErrs parses src as t.yaml and checks that exactly the wanted problems
// are reported, in position order.
func checkErrs(t *testing.T, reason, src string, wants ...want) {
	t.Helper()
	s, err := Parse("t.yaml", []byte(src))
	if len(wants) == 0 {
		if err != nil {
			t.Errorf("%s: unexpected problems:\n%v", reason, err)
		}
		return
	}
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("%s: got %v (spec %v), want Errors", reason, err, s)
	}
	if s != nil {
		t.Errorf("%s: got a spec along with problems", reason)
	}
	if len(es) != len(wants) {
		t.Errorf("%s: got %d problems, want %d:\n%v", reason, len(es), len(wants), err)
		return
	}
	for i, w := range wants {
		prefix := "t.yaml:" + w.at + ": "
		got := es[i].Error()
		if !strings.HasPrefix(got, prefix) || !strings.Contains(es[i].Msg, w.msg) {
			t.Errorf("%s: problem %d is\n\t%s\nwant\n\t%s… containing %q", reason, i, got, prefix, w.msg)
		}
	}
}

func TestThreeMistakes(t *testing.T) {
	t.Parallel()
	checkErrs(t, "a typo, a bad rate unit and a negative cv are all reported", `version: 1
duration: 10m
clients:
  - name: chat
    model: m
    rate: 5/x
    arrival:
      process: gamma
      cvv: 3
      cv: -1
    input: 1k
    output: 256
`,
		want{"6:11: clients[0].rate", "the unit after / is s, sec, m, min, h, hr or d"},
		want{"9:7: clients[0].arrival.cvv", `unknown key (did you mean "cv"?)`},
		want{"10:11: clients[0].arrival.cv", "cv must be > 0, got -1"},
	)
}

func TestDocumentErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		src    string
		wants  []want
	}{
		{"empty file", "", []want{{"1:1", "spec is empty"}}},
		{"comments only", "# nothing\n", []want{{"1:1", "spec is empty"}}},
		{"syntax error stops everything", "version: 1\na: [1, 2\n", []want{{"2:4", "yaml: sequence end token ']' not found"}}},
		{"two documents", "version: 1\n---\nversion: 1\n", []want{{"3:1", "expected one YAML document, found 2"}}},
		{"a %YAML directive is not a document", "%YAML 1.2\n---\nversion: 1\n", []want{
			{"3:1", "missing key clients"},
			{"3:1", "missing key duration or requests"},
		}},
		{"not a mapping", "- 1\n- 2\n", []want{{"1:1", "expected a mapping, got a list"}}},
		{"a scalar", "hello\n", []want{{"1:1", "expected a mapping, got hello"}}},
		{"version from the future", "version: 2\nwhatever: 1\n", []want{{"1:10: version", "unsupported version 2 (this surge reads version 1)"}}},
		{"missing everything", "name: x\n", []want{
			{"1:1", "missing key version (add version: 1)"},
			{"1:1", "missing key clients"},
			{"1:1", "missing key duration or requests"},
		}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, tt.src, tt.wants...)
	}
}

// head is the start of the specs below; their line numbers count from it.
const head = "version: 1\nduration: 1m\nclients:\n"

func TestErrorClasses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		src    string
		wants  []want
	}{
		{"unknown top-level key with hint", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1}
seeed: 3
`, []want{{"5:1: seeed", `unknown key (did you mean "seed"?)`}}},
		{"client key at the top level", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1}
model: m
`, []want{{"5:1: model", "model goes under each client"}}},
		{"x- keys are free", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1}
x-notes: anything
`, nil},
		{"duplicate key", head + `  - name: a
    model: m
    rate: 1/s
    rate: 2/s
    input: 1
    output: 1
`, []want{{"7:5: clients[0].rate", "duplicate key (first at 6:5)"}}},
		{"missing required client keys point at the client", head + `  - rate: 1/s
    api: chat
`, []want{
			{"4:5: clients[0]", "missing key name"},
			{"4:5: clients[0]", "missing key model"},
			{"4:5: clients[0]", "missing key input"},
			{"4:5: clients[0]", "missing key output"},
		}},
		{"wrong type: duration without unit", "version: 1\nduration: 30\nclients:\n  - {name: a, model: m, rate: 1/s, input: 1, output: 1}\n",
			[]want{{"2:11: duration", "expected a duration like 30s, got 30 (a number needs a unit: write 30s)"}}},
		{"wrong type: mapping for a string", head + `  - name: {first: a}
    model: m
    rate: 1/s
    input: 1
    output: 1
`, []want{{"4:11: clients[0].name", "expected a string, got a mapping"}}},
		{"wrong type: list for a rate", head + `  - {name: a, model: m, rate: [1], input: 1, output: 1}
`, []want{{"4:31: clients[0].rate", "expected a rate like 5/s, got a list"}}},
		{"out of range", "version: 1\nduration: 1m\nrate: 5/s\nclients:\n  - {name: a, model: m, weight: -2, input: 1, output: 1}\n",
			[]want{{"5:33: clients[0].weight", "weight must be > 0, got -2"}}},
		{"enum with hint", head + `  - {name: a, model: m, rate: 1/s, api: chats, input: 1, output: 1}
`, []want{{"4:41: clients[0].api", `unknown api chats (did you mean "chat"?)`}}},
		{"enum without a close match lists the choices", head + `  - {name: a, model: m, rate: 1/s, prompt: poem, input: 1, output: 1}
`, []want{{"4:44: clients[0].prompt", "(valid: mixed, question, instruction, summarize, code, creative, analysis, extraction, math, tool_use, long_qa, rag, chat, translation, adversarial, copy)"}}},
		{"a misspelt style in a content mix", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, content: {code: 0.5, creativ: 0.5}}
`, []want{{"4:78: clients[0].content.creativ", `unknown key (did you mean "creative"?)`}}},
		{"a content weight must be positive", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, content: {code: 0}}
`, []want{{"4:73: clients[0].content.code", "weight of code must be > 0, got 0"}}},
		{"prompt and content together", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, prompt: code, content: {rag: 1}}
`, []want{{"4:80: clients[0].content", "give prompt (one style) or content (a mix of styles), not both"}}},
		{"languages: for language:", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, languages: {en: 1}}
`, []want{{"4:57: clients[0].languages", `unknown key (did you mean "language"?)`}}},
		{"an unknown language", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, language: esp}
`, []want{{"4:67: clients[0].language", `unknown language esp (did you mean "es"?)`}}},
		{"an unknown language in a mix", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, language: {en: 1, kr: 1}}
`, []want{{"4:75: clients[0].language.kr", "unknown key"}}},
		{"faults must be a mapping", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, faults: []}
`, []want{{"4:65: clients[0].faults", "expected a mapping, got a list"}}},
		{"unknown session kind", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, session: {kind: retrieval}}
`, []want{{"4:73: clients[0].session.kind", "unknown session kind retrieval (valid: single, chat, agent, rag, batch)"}}},
		{"chat needs turns", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, session: {kind: chat}}
`, []want{{"4:66: clients[0].session", "missing key turns"}}},
		{"think is a duration", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, session: {kind: chat, turns: 3, think: 5}}
`, []want{{"4:96: clients[0].session.think", "a number needs a unit: write 5s"}}},
		{"think for chat only", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, session: {think: 5s}}
`, []want{{"4:74: clients[0].session.think", "think is for chat sessions; add kind: chat"}}},
		{"chat on completions", head + `  - {name: a, model: m, api: completions, rate: 1/s, input: 1, output: 1, session: {kind: chat, turns: 2}}
`, []want{{"4:84: clients[0].session", "chat sessions need a conversation: api chat, responses or messages"}}},
		{"api near miss", head + `  - {name: a, model: m, api: respones, rate: 1/s, input: 1, output: 1}
`, []want{{"4:30: clients[0].api", `unknown api respones (did you mean "responses"?)`}}},
		{"messages needs max_tokens", head + `  - {name: a, model: m, api: messages, rate: 1/s, input: 1, output: 1, sampling: {max_tokens: none}}
`, []want{{"4:82: clients[0].sampling", "api messages requires max_tokens"}}},
		{"prefix needs messages", head + `  - {name: a, model: m, api: completions, rate: 1/s, input: 1, output: 1, prefix: {pool: 1, length: 8}}
`, []want{{"4:83: clients[0].prefix", "shared system prompts need messages"}}},
		{"embeddings generate no output", head + `  - {name: a, model: m, api: embeddings, rate: 1/s, input: 1, output: 1}
`, []want{{"4:71: clients[0].output", "api embeddings generates no tokens: remove output"}}},
		{"inputs for embeddings only", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, inputs: 4}
`, []want{{"4:65: clients[0].inputs", "inputs (texts per request) is for api: embeddings"}}},
		{"embeddings in a conversation", head + `  - {name: a, model: m, api: embeddings, rate: 1/s, input: 1, session: {kind: chat, turns: 2}}
`, []want{{"4:72: clients[0].session", "chat sessions need a conversation: api chat, responses or messages"}}},
		{"rerank generates no output", head + `  - {name: a, model: m, api: rerank, rate: 1/s, input: 8, document: 64, output: 1}
`, []want{{"4:81: clients[0].output", "api rerank generates no tokens: remove output (input is the query's length"}}},
		{"rerank needs its documents' length", head + `  - {name: a, model: m, api: score, rate: 1/s, input: 8, documents: 4}
`, []want{{"4:5: clients[0]", "missing key document (each document's length in tokens"}}},
		{"documents for rerank and score only", head + `  - {name: a, model: m, api: embeddings, rate: 1/s, input: 1, documents: 4, document: 9}
`, []want{{"4:74: clients[0].documents", "documents (documents per request) is for api: rerank or score"}, {"4:87: clients[0].document", "document (each document's length) is for api: rerank or score"}}},
		{"documents near miss", head + `  - {name: a, model: m, api: rerank, rate: 1/s, input: 8, document: 64, documnets: 4}
`, []want{{"4:73: clients[0].documnets", `did you mean "documents"?`}}},
		{"inputs are not documents", head + `  - {name: a, model: m, api: rerank, rate: 1/s, input: 8, document: 64, inputs: 4}
`, []want{{"4:81: clients[0].inputs", "inputs (texts per request) is for api: embeddings"}}},
		{"rerank in a conversation", head + `  - {name: a, model: m, api: rerank, rate: 1/s, input: 1, document: 2, session: {kind: chat, turns: 2}}
`, []want{{"4:81: clients[0].session", "chat sessions need a conversation: api chat, responses or messages"}}},
		{"api near miss rerank", head + `  - {name: a, model: m, api: rerankk, rate: 1/s, input: 1, output: 1}
`, []want{{"4:30: clients[0].api", `unknown api rerankk (did you mean "rerank"?)`}}},
		{"no credential headers", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, headers: {Authorization: Bearer x}}
`, []want{{"4:67: clients[0].headers.Authorization", "carries credentials, which a spec must not hold"}}},
		{"credential names hold ids only", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, headers: {x-session-id: "s-{session}", x-session-key: "{session}"}}
`, []want{{"4:67: clients[0].headers.x-session-id", "may hold only {client} and {session}"}}},
		{"header placeholders", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, headers: {x-id: "{turn}"}}
`, []want{{"4:73: clients[0].headers.x-id", "the only placeholders are {client} and {session}"}}},
		{"extra_body keeps the workload", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, extra_body: {messages: []}}
`, []want{{"4:69: clients[0].extra_body.messages", "extra_body cannot replace it"}}},
		{"extra_body is a mapping", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, extra_body: [1]}
`, []want{{"4:69: clients[0].extra_body", "expected a mapping of members"}}},
		{"prefix needs a length", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, prefix: {pool: 0}}
`, []want{{"4:65: clients[0].prefix", "missing key length"}, {"4:72: clients[0].prefix.pool", "pool must be at least 1"}}},
		{"bad salt", strings.Replace(head, "clients:", "salt: never\nclients:", 1) + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1}
`, []want{{"3:7: salt", "unknown salt never (valid: run, none)"}}},
		{"bad client name", head + `  - {name: Chat Bot, model: m, rate: 1/s, input: 1, output: 1}
`, []want{{"4:12: clients[0].name", `client name "Chat Bot" may only hold a-z, 0-9, _, . and -`}}},
		{"yes is not a boolean", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {exact_output: yes}}
`, []want{{"4:82: clients[0].sampling.exact_output", "expected true or false, got yes (write true)"}}},
		{"exact_output with max_tokens none: exact output sends max_tokens", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {max_tokens: none, exact_output: true}}
`, []want{{"4:80: clients[0].sampling.max_tokens", "exact_output sends max_tokens equal to the sampled output length; remove max_tokens or exact_output"}}},
		{"exact_output with a fixed max_tokens: it would send two different max_tokens", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {exact_output: true, max_tokens: 512}}
`, []want{{"4:100: clients[0].sampling.max_tokens", "remove max_tokens or exact_output"}}},
		{"exact_output with max_tokens output says the same thing twice: fine", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {exact_output: true, max_tokens: output}}
`, nil},
		{"a fixed max_tokens without exact_output is a plain cap: fine", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {exact_output: false, max_tokens: 4k}}
`, nil},
		{"a max_tokens that fails to read is not also reported as a conflict", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {exact_output: true, max_tokens: lots}}
`, []want{{"4:100: clients[0].sampling.max_tokens", "expected output, none or a number of tokens, got lots"}}},
		{"input that can never fit in MaxLength", head + `  - {name: a, model: m, rate: 1/s, input: 2M, output: 1}
`, []want{{"4:43: clients[0].input", "input is always longer than 1000000 tokens"}}},
		{"output whose min is past MaxLength", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: {dist: lognormal, median: 1k, sigma: 1, min: 1.5M}}
`, []want{{"4:54: clients[0].output", "bring it, or its min, down to at most 1000000"}}},
		{"a pareto whose scale starts past MaxLength", head + `  - {name: a, model: m, rate: 1/s, input: "pareto(alpha=2, xm=3M)", output: 1}
`, []want{{"4:43: clients[0].input", "always longer than"}}},
		{"exactly MaxLength is allowed", head + `  - {name: a, model: m, rate: 1/s, input: 1M, output: 1}
`, nil},
		{"a tail past MaxLength is allowed: samples are clamped", head + `  - {name: a, model: m, rate: 1/s, input: "pareto(alpha=1.1, xm=1k)", output: {dist: uniform, min: 1, max: 5M}}
`, nil},
		{"sampling ranges", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {temperature: -1, top_p: 0, max_tokens: 0}}
`, []want{
			{"4:81: clients[0].sampling.temperature", "temperature must be ≥ 0, got -1"},
			{"4:92: clients[0].sampling.top_p", "top_p must be in (0, 1], got 0"},
			{"4:107: clients[0].sampling.max_tokens", "max_tokens must be at least 1"},
		}},
		{"max_tokens typo", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1, sampling: {max_tokens: outptu}}
`, []want{{"4:80: clients[0].sampling.max_tokens", `got outptu (did you mean "output"?)`}}},
		{"tokenizer typo", "version: 1\nduration: 1m\ntokenizer: cl100k\nclients:\n  - {name: a, model: m, rate: 1/s, input: 1, output: 1}\n",
			[]want{{"3:12: tokenizer", `unknown tokenizer cl100k (did you mean "cl100k_base"?)`}}},
		{"zero duration and requests", "version: 1\nduration: 0\nrequests: 0\nclients:\n  - {name: a, model: m, rate: 1/s, input: 1, output: 1}\n",
			[]want{{"2:11: duration", "duration must be > 0"}, {"3:11: requests", "requests must be at least 1"}}},
		{"warmup as long as the run", "version: 1\nduration: 1m\nwarmup: 60s\nclients:\n  - {name: a, model: m, rate: 1/s, input: 1, output: 1}\n",
			[]want{{"3:9: warmup", "warmup 1m is not shorter than duration 1m"}}},
		{"seed out of range", "version: 1\nseed: -1\nduration: 1m\nclients:\n  - {name: a, model: m, rate: 1/s, input: 1, output: 1}\n",
			[]want{{"2:7: seed", "expected a whole number from 0 to 18446744073709551615, got -1"}}},
		{"empty client list", "version: 1\nduration: 1m\nclients: []\n", []want{{"3:10: clients", "needs at least one client"}}},
		{"client is not a mapping", head + "  - chat\n", []want{{"4:5: clients[0]", "expected a mapping, got chat"}}},
		{"duplicate client names", head + `  - {name: a, model: m, rate: 1/s, input: 1, output: 1}
  - {name: a, model: m, rate: 1/s, input: 1, output: 1}
`, []want{{"5:12: clients[1].name", "duplicate client name a (first at 4:12)"}}},
	}
	for _, tt := range tests {
		checkErrs(t, tt.reason, tt.src, tt.wants...)
	}
}

func TestAnchorsAndMerges(t *testing.T) {
	t.Parallel()
	src := `version: 1
duration: 1m
x-base: &base
  model: m
  rate: 1/s
  input: 1k
  output: 100
clients:
  - <<: *base
    name: a
  - <<: *base
    name: b
    rate: 3/s
`
	s, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Clients) != 2 || s.Clients[0].Model != "m" || s.Clients[1].Model != "m" {
		t.Fatalf("merge did not fill the clients: %+v", s.Clients)
	}
	if s.Clients[0].Arrival.Rate != 1 || s.Clients[1].Arrival.Rate != 3 {
		t.Errorf("rates %v, %v; want 1 (merged) and 3 (overridden)", s.Clients[0].Arrival.Rate, s.Clients[1].Arrival.Rate)
	}
	checkErrs(t, "alias without anchor", head+"  - *nope\n", want{"4:5: clients[0]", "alias *nope has no anchor &nope before it"})
	checkErrs(t, "same client twice through an alias", head+`  - &c {name: a, model: m, rate: 1/s, input: 1, output: 1}
  - *c
`, want{"5:5: clients[1].name", "duplicate client name a (first at 4:15)"})
	checkErrs(t, "merge of a scalar", head+`  - {<<: 3, name: a, model: m, rate: 1/s, input: 1, output: 1}
`, want{"4:10: clients[0].<<", "<< merges a mapping or a list of mappings, got 3"})
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.yaml", []byte(`version: 1
requests: 100
clients:
  - {name: open, model: m, rate: 2/s, input: 10, output: 5}
  - {name: closed, model: m, concurrency: 4, input: 10, output: 5}
`))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"version", s.Version, 1},
		{"seed", s.Seed, uint64(1)},
		{"tokenizer", s.Tokenizer, "o200k_base"},
		{"duration", s.Duration, time.Duration(0)},
		{"warmup", s.Warmup, time.Duration(0)},
		{"api", s.Clients[0].API, "chat"},
		{"prompt", s.Clients[0].Prompt, "mixed"},
		{"weight", s.Clients[0].Weight, 1.0},
		{"max_tokens", s.Clients[0].Sampling.MaxTokens, MaxTokensOutput},
		{"exact_output", s.Clients[0].Sampling.ExactOutput, false},
		{"open-loop process", s.Clients[0].Arrival.Process, arrival.Poisson},
		{"open-loop rate", s.Clients[0].Arrival.Rate, 2.0},
		{"closed-loop process is unset", s.Clients[1].Arrival.Process, arrival.Process("")},
		{"closed-loop concurrency", s.Clients[1].Concurrency, 4},
		{"closed-loop max_tokens", s.Clients[1].Sampling.MaxTokens, MaxTokensOutput},
		{"input", s.Clients[0].Input.String(), "fixed(value=10)"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if s.Clients[0].Sampling.Temperature != nil || s.Clients[0].Sampling.TopP != nil {
		t.Errorf("temperature and top_p should stay unset (the server's defaults)")
	}
}

func TestAliasBomb(t *testing.T) {
	t.Parallel()
	// Each level lists the previous one 64 times: 64⁴ ≈ 17M fixed lengths if
	// expanded in full.
	var b strings.Builder
	b.WriteString("version: 1\nduration: 1m\nx-0: &l0 {dist: fixed, value: 1}\n")
	for lvl := 1; lvl <= 4; lvl++ {
		prev := strings.Repeat(fmt.Sprintf("*l%d, ", lvl-1), 64)
		fmt.Fprintf(&b, "x-%d: &l%d {dist: mixture, components: [%s]}\n", lvl, lvl, strings.TrimSuffix(prev, ", "))
	}
	b.WriteString("clients:\n  - {name: a, model: m, rate: 1/s, input: *l4, output: 1}\n")
	_, err := Parse("t.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "spec is too large") {
		t.Errorf("got %v, want the size limit", err)
	}
}
