package bundle

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"surge/trace"
)

// testTrace is a one-session trace, of a request of input tokens, and
// its workload hash.
func testTrace(t *testing.T, input int) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	tw, err := trace.NewWriter(&buf, trace.Header{Tokenizer: "o200k_base", Clients: []trace.ClientInfo{{Name: "c", Model: "m"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Write(&trace.Session{Client: "c", Model: "m", API: "chat", Turns: []trace.Turn{{InputTokens: input, OutputTokens: 5}}}); err != nil {
		t.Fatal(err)
	}
	hash, err := tw.Close()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), hash
}

// testRecords is a records file of a run of the workload hash: with an
// end line (interrupted or not) when end is set.
func testRecords(t *testing.T, hash string, end *trace.RunEnd) []byte {
	t.Helper()
	var buf bytes.Buffer
	rw, err := trace.NewRecordWriter(&buf, trace.RunHeader{WorkloadHash: hash, Start: time.Unix(1e9, 0).UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if err := rw.Write(&trace.Record{Client: "c", Model: "m", InputTokens: 10, OutputTokens: 5}); err != nil {
		t.Fatal(err)
	}
	if end != nil {
		if err := rw.Close(*end); err != nil {
			t.Fatal(err)
		}
	} else if err := rw.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withManifest adds to fsys the manifest naming its files, as a run
// writes it last.
func withManifest(t *testing.T, fsys fstest.MapFS, hash string, interrupted bool) fstest.MapFS {
	t.Helper()
	m := &Manifest{WorkloadHash: hash, Interrupted: interrupted, Files: map[string]File{}}
	for name, f := range fsys {
		d, err := Digest(bytes.NewReader(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		m.Files[name] = d
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	fsys[ManifestFile] = &fstest.MapFile{Data: buf.Bytes()}
	return fsys
}

func TestOpenVerify(t *testing.T) {
	t.Parallel()
	tr, hash := testTrace(t, 10)
	other, _ := testTrace(t, 20)
	ended := &trace.RunEnd{End: time.Unix(1e9+60, 0).UTC(), Scheduled: 1, Sent: 1}
	stopped := &trace.RunEnd{End: time.Unix(1e9+6, 0).UTC(), Interrupted: true, Scheduled: 9, Sent: 1}
	files := func(records []byte) fstest.MapFS {
		fsys := fstest.MapFS{TraceFile: {Data: tr}, RecordsFile: {Data: records}}
		for _, name := range Reports {
			fsys[name] = &fstest.MapFile{Data: []byte(name + " of the run\n")}
		}
		return fsys
	}
	complete := withManifest(t, files(testRecords(t, hash, ended)), hash, false)
	missingHTML := withManifest(t, files(testRecords(t, hash, ended)), hash, false)
	delete(missingHTML, "report.html")
	tampered := withManifest(t, files(testRecords(t, hash, ended)), hash, false)
	tampered["report.txt"] = &fstest.MapFile{Data: []byte("a better report\n")}
	otherTrace := withManifest(t, files(testRecords(t, hash, ended)), hash, false)
	otherTrace[TraceFile] = &fstest.MapFile{Data: other}
	added := withManifest(t, files(testRecords(t, hash, ended)), hash, false)
	added["notes.txt"] = &fstest.MapFile{Data: []byte("mine\n")}
	cut := testRecords(t, hash, nil)
	cut = append(cut, `{"client":"c","mod`...)
	badManifest := files(testRecords(t, hash, ended))
	badManifest[ManifestFile] = &fstest.MapFile{Data: []byte(`{"surge_bundle": 1, "files": {`)}

	tests := []struct {
		name     string
		fsys     fstest.MapFS
		state    State
		missing  []string
		ok       bool
		problem  string // in the problems, when not ok
		statuses map[string]Status
	}{
		{"complete", complete, Complete, nil, true, "", map[string]Status{RecordsFile: Verified, "report.html": Verified}},
		{"interrupted", withManifest(t, files(testRecords(t, hash, stopped)), hash, true), Interrupted, nil, true, "", map[string]Status{RecordsFile: Verified}},
		{"killed, no manifest, no reports", fstest.MapFS{TraceFile: {Data: tr}, RecordsFile: {Data: testRecords(t, hash, nil)}},
			Killed, []string{ManifestFile, "report.html", "report.json", "report.txt"}, true, "", map[string]Status{RecordsFile: Unchecked, TraceFile: Unchecked}},
		{"killed mid-line", fstest.MapFS{TraceFile: {Data: tr}, RecordsFile: {Data: cut}},
			Killed, []string{ManifestFile, "report.html", "report.json", "report.txt"}, true, "", nil},
		{"killed before any record", fstest.MapFS{TraceFile: {Data: tr}},
			Killed, []string{ManifestFile, RecordsFile, "report.html", "report.json", "report.txt"}, true, "", nil},
		{"report failed", fstest.MapFS{TraceFile: {Data: tr}, RecordsFile: {Data: testRecords(t, hash, ended)}, "report.txt": {Data: []byte("x")}},
			Unfinished, []string{ManifestFile, "report.html", "report.json"}, true, "", nil},
		{"missing report.html", missingHTML, Complete, []string{"report.html"}, true, "", map[string]Status{"report.html": Missing}},
		{"a file added", added, Complete, nil, true, "", map[string]Status{"notes.txt": Unlisted}},
		{"tampered report", tampered, Complete, nil, false, "report.txt: 16 bytes", map[string]Status{"report.txt": Mismatch, "report.json": Verified}},
		{"another trace", otherTrace, Complete, nil, false, "trace.jsonl has workload hash", map[string]Status{TraceFile: Mismatch}},
		{"killed, another trace", fstest.MapFS{TraceFile: {Data: other}, RecordsFile: {Data: testRecords(t, hash, nil)}},
			Killed, nil, false, "the records header says " + hash, nil},
		{"unreadable manifest", badManifest, Unfinished, nil, false, "manifest.json: reading manifest", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Open(tt.fsys)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.State(); got != tt.state {
				t.Errorf("state %v, want %v", got, tt.state)
			}
			if got := b.Missing(); tt.missing != nil && !slices.Equal(got, tt.missing) {
				t.Errorf("missing %q, want %q", got, tt.missing)
			}
			v := b.Verify()
			if v.OK() != tt.ok || !tt.ok && !strings.Contains(strings.Join(v.Problems, "\n"), tt.problem) {
				t.Errorf("ok %v with problems %q; want ok %v and a problem saying %q", v.OK(), v.Problems, tt.ok, tt.problem)
			}
			if err := v.Err("d", b.Has(ManifestFile)); (err == nil) != tt.ok || err != nil && !strings.Contains(err.Error(), tt.problem) {
				t.Errorf("Err: %v; want nil %v, saying %q", err, tt.ok, tt.problem)
			}
			for name, want := range tt.statuses {
				i := slices.IndexFunc(v.Files, func(c FileCheck) bool { return c.Name == name })
				if i < 0 {
					t.Errorf("%s not checked", name)
				} else if got := v.Files[i].Status; got != want {
					t.Errorf("%s: %v, want %v", name, got, want)
				}
			}
		})
	}
}

func TestOpenNotABundle(t *testing.T) {
	t.Parallel()
	if _, err := Open(fstest.MapFS{"notes.txt": {Data: []byte("x")}}); err == nil || !strings.Contains(err.Error(), "not a bundle") {
		t.Errorf("Open of a directory with no bundle file: %v, want an error saying it is not a bundle", err)
	}
}

func TestReadRecords(t *testing.T) {
	t.Parallel()
	_, hash := testTrace(t, 10)
	whole := testRecords(t, hash, &trace.RunEnd{Sent: 1})
	tests := []struct {
		name    string
		fsys    fstest.MapFS
		files   []string
		records int
		warn    string
	}{
		{"one run", fstest.MapFS{RecordsFile: {Data: whole}}, []string{RecordsFile}, 1, ""},
		{"a directory of one shard", fstest.MapFS{"s0/" + RecordsFile: {Data: whole}}, []string{"s0/" + RecordsFile}, 1, ""},
		{"a cut last line", fstest.MapFS{RecordsFile: {Data: append(testRecords(t, hash, nil), `{"cli`...)}}, []string{RecordsFile}, 1, "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names, err := RecordFiles(tt.fsys, ".")
			if err != nil || !slices.Equal(names, tt.files) {
				t.Fatalf("RecordFiles: %q, %v; want %q", names, err, tt.files)
			}
			rs, warnings, err := ReadRecords(tt.fsys, names)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs.Records) != tt.records {
				t.Errorf("%d records, want %d", len(rs.Records), tt.records)
			}
			if got := strings.Join(warnings, "\n"); tt.warn == "" && got != "" || !strings.Contains(got, tt.warn) {
				t.Errorf("warnings %q, want one saying %q", got, tt.warn)
			}
		})
	}
	if _, err := RecordFiles(fstest.MapFS{"x/notes.txt": {}}, "."); err == nil {
		t.Error("RecordFiles of a directory without records: no error")
	}
}
