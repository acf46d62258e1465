package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// TestReadWanted: the sessions wanted come back whole, in order, the
// others are skipped, lines of any form are told apart right (a client
// name with an escape, fields in another order), and the hash is the
// whole trace's, as Read's.
func TestReadWanted(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	tw, err := NewWriter(&b, Header{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []string{"a", `q"uote`, "a", "b", "a"} {
		s := &Session{Client: c, Index: i, API: "chat", Turns: []Turn{{Prompt: "hi", InputTokens: 1, OutputTokens: 1}}}
		if err := tw.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := tw.Close()
	if err != nil {
		t.Fatal(err)
	}
	// A line written by hand, its fields in another order.
	text := bytes.Replace(b.Bytes(), []byte(`{"client":"b","index":3,`), []byte(`{"index":3,"client":"b",`), 1)
	tr, err := NewReader(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for {
		s, err := tr.ReadWanted(func(client string, index int) bool { return client != "a" || index == 4 })
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Turns) != 1 || s.Turns[0].Prompt != "hi" {
			t.Errorf("session %d read as %+v", s.Index, s)
		}
		got = append(got, s.Index)
	}
	if want := []int{1, 3, 4}; len(got) != len(want) || got[0] != 1 || got[1] != 3 || got[2] != 4 {
		t.Errorf("read sessions %v, want %v", got, want)
	}
	if tr.Hash() == hash {
		t.Error("the trace changed by hand has the written trace's hash")
	}
	tr, _ = NewReader(bytes.NewReader(b.Bytes()))
	for {
		if _, err := tr.ReadWanted(func(string, int) bool { return false }); err != nil {
			break
		}
	}
	if tr.Hash() != hash {
		t.Errorf("hash after skipping every session %s, want %s", tr.Hash(), hash)
	}
	for _, tt := range []struct {
		line   string
		client string
		index  int
		ok     bool
	}{
		{`{"client":"a","index":12,"x":1}`, "a", 12, true},
		{`{"client":"a","index":0}`, "a", 0, true},
		{`{"client":"a","index":012,"x":1}`, "", 0, false},
		{`{"client":"a\"b","index":1,"x":1}`, "", 0, false},
		{`{"client":"a","index":-1,"x":1}`, "", 0, false},
		{`{"client":"a","index":1.5,"x":1}`, "", 0, false},
		{`{"client":"a","index":12345678901,"x":1}`, "", 0, false},
		{`{"index":1,"client":"a"}`, "", 0, false},
	} {
		c, i, ok := sessionKey([]byte(tt.line))
		if c != tt.client || i != tt.index || ok != tt.ok {
			t.Errorf("sessionKey(%s) = %q, %d, %v; want %q, %d, %v", tt.line, c, i, ok, tt.client, tt.index, tt.ok)
		}
	}
}

// FuzzSessionKey: whatever the line, a key sessionKey reads is the one
// the line's JSON holds.
func FuzzSessionKey(f *testing.F) {
	for _, s := range []string{`{"client":"a","index":12,"x":1}`, `{"client":"a","index":0}`, `{"client":"é","index":7,"turns":[]}`, `{"client":"a","index":9`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		client, index, ok := sessionKey(line)
		if !ok {
			return
		}
		var v struct {
			Client *string `json:"client"`
			Index  *int    `json:"index"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			return // not JSON past the key: decoding the line refuses it
		}
		if v.Client == nil || v.Index == nil || *v.Client != client || *v.Index != index {
			t.Errorf("sessionKey(%q) = %q, %d; the JSON says %v, %v", line, client, index, v.Client, v.Index)
		}
	})
}
