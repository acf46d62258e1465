package harness

import (
	"maps"
	"reflect"
	"strings"
	"testing"

	"surge/trace"
)

func TestParseTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		want   target
		errs   []string // each must be in the error; nil: no error
		reason string
	}{
		{"", target{}, nil, "no target: the built-in engine"},
		{"http://h:8000", target{url: "http://h:8000"}, nil, "one URL, as before"},
		{" https://h/v1 ", target{url: "https://h/v1"}, nil, "spaces around one URL"},
		{"http://u:p=w@h:8000", target{url: "http://u:p=w@h:8000"}, nil, "an '=' after :// belongs to the URL"},
		{"llama=http://h1:8000,qwen=http://h2:8000", target{routes: []route{{"llama", "http://h1:8000"}, {"qwen", "http://h2:8000"}}}, nil,
			"two models, kept in order"},
		{"llama=http://h1, *=http://h3 ,qwen=http://h2", target{routes: []route{{"llama", "http://h1"}, {"qwen", "http://h2"}}, fallback: "http://h3"}, nil,
			"spaces around entries, and a default"},
		{"meta-llama/Llama-3.1-8B=http://h1,llama3:8b=http://h2", target{routes: []route{{"meta-llama/Llama-3.1-8B", "http://h1"}, {"llama3:8b", "http://h2"}}}, nil,
			"model names with a slash and a colon"},
		{"localhost:8000", target{}, []string{"--target localhost:8000: want a URL like"}, "one URL without a scheme"},
		{"ftp://user:secret@host", target{}, []string{"--target ftp://host: want a URL"}, "credentials are never echoed"},
		{"http://h:8000?x=1", target{}, []string{"no query or fragment"}, "a query cannot take /v1 paths"},
		{"llama=http://h1,llama=http://h2", target{}, []string{"llama is given twice"}, "a duplicate model"},
		{"*=http://h1,*=http://h2", target{}, []string{"* is given twice"}, "a duplicate default"},
		{"=http://h1", target{}, []string{"no model or client before the '='"}, "an empty key"},
		{"llama=http://h1,http://h2", target{}, []string{`entry "http://h2": want MODEL=URL`}, "a bare URL among pairs"},
		{"llama=http://h1,,qwen=http://h2", target{}, []string{`entry "": want MODEL=URL`}, "an empty entry"},
		{"llama=h1:8000,qwen=ftp://u:secret@h2,llama=http://h3", target{},
			[]string{"--target llama=h1:8000: want a URL", "--target qwen=ftp://h2: want a URL", "llama is given twice"},
			"every mistake at once, without credentials"},
	}
	for _, tt := range tests {
		got, err := parseTarget(tt.in)
		if tt.errs == nil {
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: parseTarget(%q) = %+v, %v; want %+v", tt.reason, tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: parseTarget(%q) = %+v; want an error", tt.reason, tt.in, got)
			continue
		}
		for _, w := range tt.errs {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tt.reason, err, w)
			}
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: error %q shows a password", tt.reason, err)
		}
	}
}

// threeClients is a workload of three clients: chat and batch send llama
// (chat's sessions name no model, so they take the client's), code sends
// qwen; a client named "qwen" sends llama too.
func threeClients() *Workload {
	return &Workload{
		Header: trace.Header{Clients: []trace.ClientInfo{
			{Name: "chat", Model: "llama"}, {Name: "code", Model: "qwen"}, {Name: "batch", Model: "llama"}, {Name: "qwen", Model: "llama"}}},
		Sessions: []*trace.Session{
			{Client: "chat"}, {Client: "code", Model: "qwen"}, {Client: "batch", Model: "llama"}, {Client: "chat"}, {Client: "qwen"}},
	}
}

func TestResolveTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target, model string // --target and --model
		want          map[string]string
		errs          []string
		reason        string
	}{
		{"llama=http://a,qwen=http://b", "", map[string]string{"llama": "http://a", "qwen": "http://b"}, nil, "one server per model"},
		{"chat=http://a,code=http://b", "", map[string]string{"llama": "http://a", "qwen": "http://b"}, nil, "clients stand for their models"},
		{"llama=http://a,*=http://c", "", map[string]string{"llama": "http://a", "qwen": "http://c"}, nil, "the default takes the rest"},
		{"llama=http://a,qwen=http://b,*=http://c", "", map[string]string{"llama": "http://a", "qwen": "http://b"}, nil, "an unused default is harmless"},
		{"chat=http://a,batch=http://a,qwen=http://b", "", map[string]string{"llama": "http://a", "qwen": "http://b"}, nil,
			"two clients of one model agree; qwen is the model, not the client of that name"},
		{"chat=http://a,batch=http://b,qwen=http://b", "", nil, []string{`chat and batch send model "llama" to different servers`},
			"two clients of one model disagree"},
		{"llama=http://a", "", nil, []string{`no server for model "qwen"`, "*=URL"}, "a model without a server"},
		{"mistral=http://a,oops=http://b", "", nil,
			[]string{`"mistral" is neither a model nor a client`, `"oops" is neither`, "models: llama, qwen; clients: batch, chat, code, qwen",
				`no server for model "llama", "qwen"`},
			"every unknown key and every model left over"},
		{"big=http://a", "big", map[string]string{"big": "http://a"}, nil, "--model makes one model of all"},
		{"code=http://a", "big", map[string]string{"big": "http://a"}, nil, "a client's model after --model"},
		{"llama=http://a,big=http://a", "big", nil, []string{`"llama" is neither a model nor a client`}, "--model hides the workload's models"},
		{"chat=http://a,code=http://b", "big", nil, []string{`send model "big" to different servers`}, "--model merges clients' models"},
	}
	for _, tt := range tests {
		tg, err := parseTarget(tt.target)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		got, err := tg.resolve(modelsOf(threeClients(), tt.model))
		if tt.errs == nil {
			if err != nil || !maps.Equal(got, tt.want) {
				t.Errorf("%s: resolve(%q) = %v, %v; want %v", tt.reason, tt.target, got, err, tt.want)
			}
			continue
		}
		for _, w := range tt.errs {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: resolve(%q) error %v; want one with %q", tt.reason, tt.target, err, w)
			}
		}
	}
}

func TestModelsOf(t *testing.T) {
	t.Parallel()
	in := threeClients()
	in.Header.Clients = append(in.Header.Clients, trace.ClientInfo{Name: "idle", Model: "mistral"})
	w := modelsOf(in, "")
	if !reflect.DeepEqual(w.sent, []string{"llama", "qwen"}) {
		t.Errorf("sent %q; want llama and qwen, not the idle client's model", w.sent)
	}
	if !w.known["mistral"] || !reflect.DeepEqual(w.byClient["idle"], []string{"mistral"}) {
		t.Errorf("known %v, idle %q: a client with no sessions still names its model", w.known, w.byClient["idle"])
	}
	in.Sessions = append(in.Sessions, &trace.Session{Client: "chat", Model: "llama-big"})
	if got := modelsOf(in, "").byClient["chat"]; !reflect.DeepEqual(got, []string{"llama", "llama-big"}) {
		t.Errorf("chat's models %q; want its own and a session's", got)
	}
}

func TestTargetName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		base   string
		routes map[string]string
		want   string
		reason string
	}{
		{"http://h:8000", nil, "http://h:8000", "one URL, as before"},
		{"https://u:secret@h", nil, "https://h", "credentials removed"},
		{"", map[string]string{"qwen": "http://u:secret@h2:8000", "llama": "http://h1:8000"}, "llama=http://h1:8000,qwen=http://h2:8000",
			"pairs in model order, credentials removed"},
	}
	for _, tt := range tests {
		if got := targetName(tt.base, tt.routes); got != tt.want {
			t.Errorf("%s: targetName = %q, want %q", tt.reason, got, tt.want)
		}
	}
}
