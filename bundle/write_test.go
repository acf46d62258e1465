package bundle

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteManifest: the manifest names every regular file of the
// directory but itself and subdirectories, with sizes and digests that
// Read gives back.
func TestWriteManifest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{"records.jsonl": "abc\n", "report.txt": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "shard-0"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A manifest left from before is not one of the files.
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteManifest(dir, &Manifest{Tool: "test"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"records.jsonl": 4, "report.txt": 0}
	if len(m.Files) != len(want) {
		t.Fatalf("files %v, want %v", m.Files, want)
	}
	for name, n := range want {
		if got, ok := m.Files[name]; !ok || got.Bytes != n || len(got.SHA256) != 64 {
			t.Errorf("%s: %+v, want %d bytes and a SHA-256", name, got, n)
		}
	}
	if m.Files["records.jsonl"].SHA256 != "edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb" {
		t.Errorf("records.jsonl digest %s", m.Files["records.jsonl"].SHA256)
	}
}
