package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"surge/content"
	"surge/internal/testbin"
)

// binary is surge built once for every test of the package.
var binary testbin.Build

// TestMain removes the built binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	binary.Remove()
	os.Exit(code)
}

// moduleRoot returns the module's root directory (tests run in the
// package's own directory, two levels below it).
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatalf("module root: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root %s: %v", root, err)
	}
	return root
}

// peersDir returns the folder of peer servers: $SURGE_PEERS, else
// ../shared/peers beside the module root. Without one the test is
// skipped, except in CI (CI set), where it fails.
func peersDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SURGE_PEERS")
	if dir == "" {
		dir = filepath.Join(moduleRoot(t), "..", "shared", "peers")
	}
	if _, err := os.Stat(filepath.Join(dir, "llama-server.sh")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no peer servers at %s (set SURGE_PEERS): %v", dir, err)
		}
		t.Skipf("no peer servers at %s (set SURGE_PEERS to the peers folder to run the interop tests): %v", dir, err)
	}
	return dir
}

// surgeBinary returns the path of a surge binary built from this tree,
// building it on first use, or $SURGE_INTEROP_BINARY when set (to test
// another build).
func surgeBinary(t *testing.T) string {
	t.Helper()
	if path := os.Getenv("SURGE_INTEROP_BINARY"); path != "" {
		return path
	}
	return binary.Path(t, moduleRoot(t))
}

// peer is a server started from the peers folder.
type peer struct {
	name string // what was started, for messages
	url  string // base URL, http://127.0.0.1:PORT
	log  string // the server's log file
}

// startPeer runs a start script of the peers folder (llama-server.sh or
// llm-d-sim.sh) with args, and stops the server it started when t ends.
func startPeer(t *testing.T, script string, args ...string) *peer {
	t.Helper()
	run := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(peersDir(t), script)}, args...)...)
	cmd.Env = append(os.Environ(), "PEERS_RUN="+run)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", script, strings.Join(args, " "), err, stderr.String())
	}
	var port, pid int
	if _, err := fmt.Sscan(string(out), &port, &pid); err != nil || port == 0 || pid == 0 {
		t.Fatalf("%s %s printed %q, want \"PORT PID\"", script, strings.Join(args, " "), out)
	}
	name := strings.TrimSuffix(script, ".sh") + " " + strings.Join(args, " ")
	p := &peer{name: name, url: "http://127.0.0.1:" + strconv.Itoa(port)}
	p.log = filepath.Join(run, strings.TrimSuffix(script, ".sh")+"-"+strconv.Itoa(port)+".log")
	t.Cleanup(func() { stopProcess(t, pid, name) })
	return p
}

// stopProcess sends SIGTERM to pid and waits for it to go, killing it
// after 10 s.
func stopProcess(t *testing.T, pid int, name string) {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
	}
	t.Logf("%s (pid %d) still running 10 s after SIGTERM; killing it", name, pid)
	syscall.Kill(pid, syscall.SIGKILL)
}

// startLlama starts llama-server with model and extra arguments.
func startLlama(t *testing.T, model string, args ...string) *peer {
	t.Helper()
	return startPeer(t, "llama-server.sh", append([]string{model, "0"}, args...)...)
}

// startLLMD starts llm-d-inference-sim with extra arguments.
func startLLMD(t *testing.T, args ...string) *peer {
	t.Helper()
	return startPeer(t, "llm-d-sim.sh", append([]string{"0"}, args...)...)
}

// result is what a surge command did.
type result struct {
	args           []string
	code           int
	stdout, stderr string
}

// String describes r for a failure message.
func (r result) String() string {
	return fmt.Sprintf("surge %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, tail(r.stdout, 40), tail(r.stderr, 40))
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// surge runs the surge binary with args in dir, within two minutes.
func surge(t *testing.T, dir string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, surgeBinary(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("surge %s: %v", strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("surge %s: did not finish within 2 minutes\n%s", strings.Join(args, " "), r)
	}
	return r
}

// mustSurge runs surge and fails t unless it exits 0.
func mustSurge(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := surge(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("%s", r)
	}
	return r
}

// writeSpec writes a spec into dir as name, with TOKENIZER replaced by
// the path of the peers' Llama 3 tokenizer.json, and returns its path.
func writeSpec(t *testing.T, dir, name, text string) string {
	t.Helper()
	text = strings.ReplaceAll(text, "TOKENIZER", filepath.Join(peersDir(t), "llama", "tokenizer.json"))
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tokenizers holds the tokenizers salted loaded, by path, each loaded
// once: loading one takes about half a second.
var tokenizers sync.Map // path → func() (content.Tokenizer, error)

// salted is first, a conversation's first message, as a run salted with
// salt sends it: the salt in place of its first tokens in the Llama 3
// tokenizer the specs name (content.MakeRoom, as surge run cuts it).
func salted(t *testing.T, salt, first string) string {
	t.Helper()
	if salt == "" {
		return first
	}
	path := filepath.Join(peersDir(t), "llama", "tokenizer.json")
	load, _ := tokenizers.LoadOrStore(path, sync.OnceValues(func() (content.Tokenizer, error) { return content.Open(path) }))
	tok, err := load.(func() (content.Tokenizer, error))()
	if err != nil {
		t.Fatal(err)
	}
	kept, ok := content.MakeRoom(tok, salt, first)
	if !ok {
		t.Fatalf("no room for the salt %q in %.60q", salt, first)
	}
	return salt + kept
}

// turn is one request of a trace, as surge gen writes it.
type turn struct {
	InputTokens  int      `json:"input_tokens"`
	OutputTokens int      `json:"output_tokens"`
	Prompt       string   `json:"prompt"`
	Inputs       []string `json:"inputs"`
	Reply        string   `json:"reply"`
	Fault        *struct {
		Kind string `json:"kind"`
	} `json:"fault"`
}

// session is one line of a trace after its header.
type session struct {
	Client string `json:"client"`
	Index  int    `json:"index"`
	API    string `json:"api"`
	Turns  []turn `json:"turns"`
}

// readTrace reads the sessions of a trace file.
func readTrace(t *testing.T, path string) []session {
	t.Helper()
	var out []session
	readLines(t, path, func(i int, line []byte) {
		if i == 0 {
			return
		}
		var s session
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, s)
	})
	return out
}

// record is one request line of records.jsonl (docs/records.md).
type record struct {
	Client             string  `json:"client"`
	Session            int     `json:"session"`
	Turn               int     `json:"turn"`
	IntendedUS         int64   `json:"intended_us"`
	SentUS             int64   `json:"sent_us"`
	TTFTUS             int64   `json:"ttft_us"`
	E2EUS              int64   `json:"e2e_us"`
	ITLUS              []int64 `json:"itl_us"`
	InputTokens        int     `json:"input_tokens"`
	OutputTokens       int     `json:"output_tokens"`
	ClientInputTokens  int     `json:"client_input_tokens"`
	ServerInputTokens  int     `json:"server_input_tokens"`
	ServerOutputTokens int     `json:"server_output_tokens"`
	Chunks             int     `json:"chunks"`
	Choices            int     `json:"choices"`
	MaxTokens          int     `json:"max_tokens"`
	ChoiceTokens       []int   `json:"choice_tokens"`
	Inputs             int     `json:"inputs"`
	NotStreamed        bool    `json:"not_streamed"`
	CachedTokens       int     `json:"cached_tokens"`
	ServerTTFTUS       int64   `json:"server_ttft_us"`
	ServerE2EUS        int64   `json:"server_e2e_us"`
	Status             int     `json:"status"`
	Retries            int     `json:"retries"`
	Fault              string  `json:"fault"`
	FinishReason       string  `json:"finish_reason"`
	TTFTCUS            int64   `json:"ttftc_us"`
	ServerToolCalls    int     `json:"server_tool_calls"`
	ToolCallChunks     int     `json:"tool_call_chunks"`
	ToolSchemaTokens   int     `json:"tool_schema_tokens"`
	Images             int     `json:"images"`
	ImageTokens        int     `json:"image_tokens"`
	ErrorClass         string  `json:"error_class"`
	Error              string  `json:"error"`
}

// String names r for a failure message.
func (r record) String() string {
	s := fmt.Sprintf("%s/%d/%d", r.Client, r.Session, r.Turn)
	if r.Fault != "" {
		s += " (fault " + r.Fault + ")"
	}
	return s
}

// records is a records.jsonl file read back.
type records struct {
	Salt     string
	Requests []record
	End      struct {
		Interrupted bool `json:"interrupted"`
		Scheduled   int  `json:"scheduled"`
		Sent        int  `json:"sent"`
	}
	ended bool
}

// readRecords reads DIR/records.jsonl.
func readRecords(t *testing.T, dir string) records {
	t.Helper()
	path := filepath.Join(dir, "records.jsonl")
	var rs records
	readLines(t, path, func(i int, line []byte) {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(line, &probe); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		var err error
		switch {
		case probe["surge_records"] != nil:
			var h struct {
				Salt string `json:"salt"`
			}
			err = json.Unmarshal(line, &h)
			rs.Salt = h.Salt
		case probe["surge_end"] != nil:
			err = json.Unmarshal(line, &rs.End)
			rs.ended = true
		default:
			var r record
			err = json.Unmarshal(line, &r)
			rs.Requests = append(rs.Requests, r)
		}
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
	})
	if !rs.ended {
		t.Fatalf("%s has no end line", path)
	}
	return rs
}

// readLines calls f with each line of the file at path.
func readLines(t *testing.T, path string, f func(i int, line []byte)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for i := 0; sc.Scan(); i++ {
		f(i, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// readJSON decodes the JSON file at path into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// postJSON posts body to url and decodes the answer into v.
func postJSON(url string, body, v any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// tokenize counts the tokens of text with llama-server's own tokenizer,
// without special tokens.
func tokenize(t *testing.T, p *peer, text string) int {
	t.Helper()
	var out struct {
		Tokens []json.RawMessage `json:"tokens"`
	}
	if err := postJSON(p.url+"/tokenize", map[string]any{"content": text, "add_special": false}, &out); err != nil {
		t.Fatalf("tokenizing with %s: %v", p.name, err)
	}
	return len(out.Tokens)
}

// smoke reports whether to run only the smoke subset: one llama-server
// chat run and two llm-d-inference-sim runs. The whole suite runs with
// SURGE_INTEROP_FULL set (as .ci/run's interop step does), so a plain
// `go test ./...` stays within minutes; -short always means the subset.
func smoke() bool {
	return testing.Short() || os.Getenv("SURGE_INTEROP_FULL") == ""
}
