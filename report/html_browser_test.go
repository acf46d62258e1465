package report

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"surge/metrics"
)

// TestHTMLInBrowser opens a report of a small synthetic run (with a
// failure whose message is "<script>alert(1)</script>", and prompts
// holding "<script>alert(2)</script>") and a sweep in
// headless Chromium, and checks what the browser made of it:
//
//   - --dump-dom: every chart is an <svg> of 640 × 360 with drawn paths;
//     the script text is a text node, and no <script> element exists;
//     no element loads from the network (no src or href to http(s), no
//     <link rel=stylesheet>, no <script src>).
//   - --enable-logging=stderr --v=0 prints every console message as an
//     INFO:CONSOLE line (uncaught exceptions and Content-Security-Policy
//     violations included); there must be none.
//   - --log-net-log records every network request. Chromium makes
//     requests of its own (update checks), which have no origin as their
//     initiator; a request from the page has the page's ("null" for a
//     file:// page) and a file:// network isolation key. There must be
//     none of those. --host-resolver-rules keeps Chromium's own requests
//     off the network.
//   - A control page with a failing script and a network image must
//     fail both checks, or they prove nothing.
//   - --screenshot renders the run's page (the run alone, without the
//     sweep) at 1280 × 5000 into $SURGE_ARTIFACTS (or a temporary
//     directory) as report-screenshot.png, for a person to look at.
//
// Without a chromium binary on PATH the test is skipped, unless CI is
// set, where it fails.
func TestHTMLInBrowser(t *testing.T) {
	t.Parallel()
	bin := chromiumBin(t)
	dir := t.TempDir()
	rs := syntheticRun()
	in := HTMLInput{Summary: metrics.Summarize(rs, metrics.Options{PerClient: true}), Records: rs,
		Sweep: syntheticSweep(), Server: serverSamples(), Title: "browser test",
		Prompt: func(string, int, int) string { return "Explain <script>alert(2)</script> please" }}
	url := "file://" + writePage(t, dir, "report.html", in)

	netlog := filepath.Join(dir, "netlog.json")
	dom, stderr := chromium(t, bin, dir, "--enable-logging=stderr", "--v=0", "--log-net-log="+netlog, "--dump-dom", url)
	checkDOM(t, dom)
	for _, line := range consoleLines(stderr) {
		t.Errorf("console message: %s", line)
	}
	for _, u := range pageRequests(t, netlog) {
		t.Errorf("the page requested %s", u)
	}
	controlPage(t, bin, dir)

	in.Sweep = nil
	screenshot(t, bin, dir, "report-screenshot.png", "file://"+writePage(t, dir, "run.html", in), 5000)
}

// TestSweepHTMLInBrowser opens the page of a sweep alone in headless
// Chromium, as TestHTMLInBrowser does a run's: every sweep chart (TTFT,
// TPOT and E2E against throughput, throughput and output tokens/s
// against load) is an <svg> of 640 × 360 with drawn paths, each point
// links its own report.html by a path relative to the sweep's directory,
// nothing loads from the network and the console is silent. It renders
// the page at 1280 × 3600 into $SURGE_ARTIFACTS (or a temporary
// directory) as sweep-screenshot.png, for a person to look at.
func TestSweepHTMLInBrowser(t *testing.T) {
	t.Parallel()
	bin := chromiumBin(t)
	dir := t.TempDir()
	r := syntheticSweep()
	url := "file://" + writePage(t, dir, "report.html", HTMLInput{Sweep: r})
	netlog := filepath.Join(dir, "netlog.json")
	dom, stderr := chromium(t, bin, dir, "--enable-logging=stderr", "--v=0", "--log-net-log="+netlog, "--dump-dom", url)
	for _, id := range sweepChartIDs {
		m := regexp.MustCompile(`(?s)<svg [^>]*id="` + id + `"[^>]*>(.*?)</svg>`).FindStringSubmatch(dom)
		if m == nil || len(regexp.MustCompile(`<path [^>]*d="M`).FindAllString(m[1], -1)) < 5 {
			t.Errorf("chart %s: no svg with drawn paths in the DOM", id)
		}
	}
	for _, p := range r.Points {
		if href := `href="` + pointReport(p.Dir) + `"`; !strings.Contains(dom, href) || strings.HasPrefix(p.Dir, "/") {
			t.Errorf("point %v: no link %s to its own report", p.Load, href)
		}
	}
	for _, line := range consoleLines(stderr) {
		t.Errorf("console message: %s", line)
	}
	for _, u := range pageRequests(t, netlog) {
		t.Errorf("the page requested %s", u)
	}
	screenshot(t, bin, dir, "sweep-screenshot.png", url, 3600)
}

// chromiumBin is the chromium on PATH; without one the test is skipped,
// unless CI is set, where it fails.
func chromiumBin(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no chromium on PATH; CI must install it (see .ci/run)")
		}
		t.Skip("no chromium on PATH: install it (apt-get install chromium) to run the browser test")
	}
	return bin
}

// writePage writes the HTML report of in to dir/name and returns its
// path.
func writePage(t *testing.T, dir, name string, in HTMLInput) string {
	t.Helper()
	page := filepath.Join(dir, name)
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := HTML(f, in); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return page
}

// screenshot renders url at 1280 × height into $SURGE_ARTIFACTS (or a
// temporary directory) as name.
func screenshot(t *testing.T, bin, dir, name, url string, height int) {
	t.Helper()
	shots := os.Getenv("SURGE_ARTIFACTS")
	if shots == "" {
		shots = t.TempDir()
	}
	shot := filepath.Join(shots, name)
	chromium(t, bin, dir, "--screenshot="+shot, fmt.Sprintf("--window-size=1280,%d", height), url)
	if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
		t.Fatalf("no screenshot at %s: %v", shot, err)
	}
	t.Logf("screenshot: %s", shot)
}

// chromium runs headless Chromium with args and its own profile under
// dir, returning its stdout and stderr.
func chromium(t *testing.T, bin, dir string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	profile, err := os.MkdirTemp(dir, "profile")
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--host-resolver-rules=MAP * ~NOTFOUND"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.String(), errb.String()
}

// checkDOM checks the page as the browser parsed it.
func checkDOM(t *testing.T, dom string) {
	t.Helper()
	if !strings.Contains(dom, "</html>") {
		t.Fatalf("no page in chromium's output: %.300s", dom)
	}
	for _, id := range append(ids(sweepChartIDs), runChartIDs...) {
		m := regexp.MustCompile(`(?s)<svg [^>]*id="` + id + `"[^>]*>(.*?)</svg>`).FindStringSubmatch(dom)
		if m == nil {
			t.Errorf("chart %s: no svg in the DOM", id)
			continue
		}
		tag := m[0][:strings.Index(m[0], ">")]
		if !strings.Contains(tag, `width="640"`) || !strings.Contains(tag, `height="360"`) {
			t.Errorf("chart %s: not 640×360: %s", id, tag)
		}
		if n := len(regexp.MustCompile(`<path [^>]*d="M`).FindAllString(m[1], -1)); n < 5 {
			t.Errorf("chart %s: %d drawn paths, want axes, ticks and data", id, n)
		}
	}
	if !strings.Contains(dom, "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>") {
		t.Error("the error message <script>alert(1)</script> is not a text cell of the errors table")
	}
	if !strings.Contains(dom, "<td>Explain &lt;script&gt;alert(2)&lt;/script&gt; please</td>") {
		t.Error("the prompt with <script>alert(2)</script> is not a text cell of the slowest requests")
	}
	for _, re := range []string{`(?i)<script`, `(?i)\b(src|href)="https?:`, `(?i)<link[^>]*stylesheet`, `(?i)@import|url\(`} {
		if loc := regexp.MustCompile(re).FindStringIndex(dom); loc != nil {
			t.Errorf("the DOM matches %s: …%s…", re, dom[max(0, loc[0]-60):min(len(dom), loc[1]+60)])
		}
	}
}

// consoleLines are the console messages in Chromium's log.
func consoleLines(stderr string) []string {
	var lines []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "CONSOLE") || strings.Contains(line, "Uncaught") {
			lines = append(lines, line)
		}
	}
	return lines
}

// controlPage checks that the console and network checks can fail: a
// page with a failing script and an image from the network must show
// both. The image's host resolves nowhere (--host-resolver-rules).
func controlPage(t *testing.T, bin, dir string) {
	t.Helper()
	page := filepath.Join(dir, "control.html")
	html := `<!DOCTYPE html><html><body><img src="http://surge-test.invalid/x.png"><script>noSuchFunction()</script></body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	netlog := filepath.Join(dir, "control-netlog.json")
	_, stderr := chromium(t, bin, dir, "--enable-logging=stderr", "--v=0", "--log-net-log="+netlog, "--dump-dom", "file://"+page)
	if len(consoleLines(stderr)) == 0 {
		t.Error("control page: its uncaught exception was not seen in the console log")
	}
	if reqs := pageRequests(t, netlog); len(reqs) != 1 || !strings.Contains(reqs[0], "surge-test.invalid") {
		t.Errorf("control page: requests %v, want its one image", reqs)
	}
}

// pageRequests are the URLs of the requests a page made in the NetLog at
// path.
func pageRequests(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Constants struct {
			LogEventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int            `json:"type"`
			Params map[string]any `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("reading the net log: %v", err)
	}
	start, ok := log.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatal("the net log has no URL_REQUEST_START_JOB event type")
	}
	var urls []string
	for _, e := range log.Events {
		url, _ := e.Params["url"].(string)
		if e.Type != start || url == "" {
			continue // another event, or the end of a request's job
		}
		initiator, _ := e.Params["initiator"].(string)
		key, _ := e.Params["network_isolation_key"].(string)
		if initiator != "not an origin" || strings.Contains(key, "file://") {
			urls = append(urls, url)
		}
	}
	return urls
}
