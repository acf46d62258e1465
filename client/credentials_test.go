package client

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEchoedCredentialsNeverInErrors has servers echo the Authorization
// header they got, plainly and JSON-escaped, for basic authentication
// from the URL, a bearer key and a credential header: no form of any
// credential is left in Result.Err.
func TestEchoedCredentialsNeverInErrors(t *testing.T) {
	t.Parallel()
	echo := func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		msg, _ := json.Marshal(fmt.Sprintf("bad credentials %q %s", r.Header.Get("Authorization"), r.Header.Get("X-Api-Key")))
		fmt.Fprintf(w, `{"error":{"message":%s}}`, msg)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("user:se/cret<1"))
	for _, tt := range []struct {
		name   string
		cfg    Config
		userPw string // user information put in the server's URL
		never  []string
	}{
		{"basic from the URL", Config{}, "user:se%2Fcret%3C1@", []string{"se/cret<1", `se\/cret`, "se/cret\\u003c1", basic, "user:se"}},
		{"bearer key", Config{APIKey: "sk-4f7a/9c"}, "", []string{"sk-4f7a/9c", `sk-4f7a\/9c`}},
		{"credential header", Config{Header: http.Header{"X-Api-Key": {"gw-k3y-77"}}}, "", []string{"gw-k3y-77"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(echo))
			defer srv.Close()
			cfg := tt.cfg
			cfg.BaseURL = strings.Replace(srv.URL, "://", "://"+tt.userPw, 1)
			c, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			res := c.Do(context.Background(), chatReq())
			if res.Status != http.StatusUnauthorized || !strings.Contains(res.Err, "[redacted]") {
				t.Fatalf("status %d err %q: want a 401 with the echo redacted", res.Status, res.Err)
			}
			for _, s := range tt.never {
				if strings.Contains(res.Err, s) {
					t.Errorf("Err %q holds %q", res.Err, s)
				}
			}
		})
	}
}

// TestBaseURLErrorsHideTheUser checks that a bad base URL is named
// without its user information, user name included.
func TestBaseURLErrorsHideTheUser(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"ftp://tok3n:pw@h", "http://tok3n@h/?q=1"} {
		_, err := New(Config{BaseURL: raw})
		if err == nil || strings.Contains(err.Error(), "tok3n") {
			t.Errorf("New(%q): %v", raw, err)
		}
	}
}
