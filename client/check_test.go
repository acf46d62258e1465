package client

import (
	"strings"
	"testing"
	"time"
)

func TestConfigCheck(t *testing.T) {
	t.Parallel()
	if err := (Config{Timeout: time.Minute, ConnectTimeout: time.Second}).Check(); err != nil {
		t.Errorf("good config: %v", err)
	}
	err := Config{ConnectTimeout: -time.Second, IdleTimeout: -1}.Check()
	if err == nil || !strings.Contains(err.Error(), "--connect-timeout -1s") || !strings.Contains(err.Error(), "--idle-timeout -1ns") {
		t.Errorf("negative timeouts: %v", err)
	}
	if _, err := New(Config{BaseURL: "http://127.0.0.1:1", FirstByteTimeout: -time.Second}); err == nil {
		t.Error("New took a negative first-byte timeout")
	}
}

func TestParseHeader(t *testing.T) {
	t.Parallel()
	h, err := ParseHeader([]string{"X-API-Key: k1", " X-Trace :  on ", "X-API-Key:k2", "Empty:"})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Values("X-Api-Key"); len(got) != 2 || got[0] != "k1" || got[1] != "k2" || h.Get("X-Trace") != "on" || len(h.Values("Empty")) != 1 {
		t.Errorf("header %v", h)
	}
	if h, err := ParseHeader(nil); h != nil || err != nil {
		t.Errorf("no lines: %v, %v", h, err)
	}
	for _, line := range []string{"secret-key-99", ": v", "Two Words: v"} {
		_, err := ParseHeader([]string{"A: b", line})
		if err == nil || !strings.Contains(err.Error(), "--header number 2") || strings.Contains(err.Error(), "secret") {
			t.Errorf("ParseHeader(%q) = %v, want a refusal of line 2 that does not quote it", line, err)
		}
	}
}
