package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"surge/openai"
	"surge/trace"
)

// options are what every request of one client carries beside its turn:
// its headers, whose placeholders are filled per session, and the extra
// members of its body, the run's merged over the client's.
type options struct {
	headers map[string]string
	extra   []byte
	typed   *openai.Options // the client's typed options; nil: none
}

// newOptions resolves the options of client c with the run's extra body;
// checkOptions has checked both.
func newOptions(c trace.ClientInfo, runExtra []byte) options {
	o := options{headers: c.Headers, extra: c.ExtraBody}
	o.typed, _ = decodeOptions(c.Options)
	if len(runExtra) > 0 {
		if len(o.extra) == 0 {
			o.extra = runExtra
		} else if merged, err := openai.MergeObject(o.extra, runExtra); err == nil {
			o.extra = merged
		}
	}
	return o
}

// header is the headers session s sends, nil for none.
func (o options) header(s *trace.Session) http.Header {
	if len(o.headers) == 0 {
		return nil
	}
	h := make(http.Header, len(o.headers))
	for name, v := range o.headers {
		h.Set(name, trace.HeaderValue(v, s))
	}
	return h
}

// decodeOptions reads a client's typed options, nil for none, and
// checks their bounds; the API's support is checked per request.
func decodeOptions(raw []byte) (*openai.Options, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var o openai.Options
	if err := dec.Decode(&o); err != nil {
		return nil, err
	}
	if err := o.CheckBounds(); err != nil {
		return nil, err
	}
	return &o, nil
}

// checkOptions reports an extra body of the run or of a client that is
// not a JSON object, and a client header value that is not one.
func checkOptions(cfg Config, clients []trace.ClientInfo) []error {
	var errs []error
	if len(cfg.ExtraBody) > 0 {
		if err := openai.CheckObject(cfg.ExtraBody); err != nil {
			errs = append(errs, fmt.Errorf("config: extra body: %v", err))
		}
	}
	for _, c := range clients {
		if len(c.ExtraBody) > 0 {
			if err := openai.CheckObject(c.ExtraBody); err != nil {
				errs = append(errs, fmt.Errorf("trace header: client %q: extra_body: %v", c.Name, err))
			}
		}
		if _, err := decodeOptions(c.Options); err != nil {
			errs = append(errs, fmt.Errorf("trace header: client %q: options: %v", c.Name, err))
		}
		for name, v := range c.Headers {
			if err := trace.CheckHeaderValue(v); err != nil {
				errs = append(errs, fmt.Errorf("trace header: client %q: header %s: %v", c.Name, name, err))
			}
		}
	}
	return errs
}

// copyHeader returns h with the Surge-Copy header set to a turn's copy
// fraction when it has one: h itself, or a new header when h is nil.
func copyHeader(h http.Header, copy float64) http.Header {
	if copy <= 0 {
		return h
	}
	if h == nil {
		h = make(http.Header, 1)
	}
	h.Set(openai.SurgeCopyHeader, strconv.FormatFloat(copy, 'g', -1, 64))
	return h
}
