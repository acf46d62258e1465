package workload

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"surge/trace"
)

// TestWriteTrace checks that WriteTrace writes the trace Generate's
// sessions make, header first, and returns its workload hash, and that a
// cancelled generation returns the context's error and no hash.
func TestWriteTrace(t *testing.T) {
	t.Parallel()
	want, _ := generate(t, parse(t, twoClients), Options{NoText: true})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		wantErr error
	}{
		{"whole", context.Background(), nil},
		{"cancelled", cancelled, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok, synth := o200k(t)
			g, err := New(parse(t, twoClients), tok, synth, Options{NoText: true})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			res, hash, err := g.WriteTrace(tt.ctx, &buf)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil {
				if hash != "" {
					t.Errorf("hash %q after an error, want none", hash)
				}
				return
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Error("the trace written differs from the one Generate's sessions make")
			}
			r, err := trace.NewReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for ; ; n++ {
				if _, err := r.Read(); err != nil {
					break
				}
			}
			if hash != r.Hash() || n != res.Sessions {
				t.Errorf("hash %s over %d sessions, want the trace's %s over %d", hash, res.Sessions, r.Hash(), n)
			}
		})
	}
}
