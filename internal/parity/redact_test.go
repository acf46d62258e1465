package parity

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEchoedCredentialsNeverInResult has servers echo every header they
// got in their errors, JSON-escaped: basic authentication from the URL, a
// bearer key and a credential header appear in no form in the result.
func TestEchoedCredentialsNeverInResult(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		msg, _ := json.Marshal(fmt.Sprint(r.Header))
		fmt.Fprintf(w, `{"error":{"message":%s}}`, msg)
	}))
	defer srv.Close()
	withUser := strings.Replace(srv.URL, "://", "://user:s3cr%2Ft@", 1)
	hdr := http.Header{"X-Api-Key": {"gw-k3y"}}
	res, err := Run(t.Context(), Config{Targets: []Target{
		{Name: "a", BaseURL: withUser, Model: "m", Header: hdr},
		{Name: "b", BaseURL: srv.URL, APIKey: "sk-b3arer", Model: "m"},
	}, Prompts: []string{"hi"}, Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	var text strings.Builder
	res.WriteText(&text)
	basic := base64.StdEncoding.EncodeToString([]byte("user:s3cr/t"))
	for _, s := range []string{"s3cr/t", `s3cr\/t`, "s3cr%2Ft", basic, "sk-b3arer", "gw-k3y"} {
		if strings.Contains(string(out), s) || strings.Contains(text.String(), s) {
			t.Errorf("the result holds %q:\n%s", s, out)
		}
	}
	if !strings.Contains(string(out), "[redacted]") {
		t.Errorf("no echo redacted, so the test saw none:\n%s", out)
	}
}
