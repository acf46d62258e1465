package interop

import (
	"strings"
	"testing"
)

// TestLlamaInBandErrors drives llama-server with model-nofix, whose
// random tokens make its output parser fail many streams after HTTP 200
// (an error event and no [DONE]): each must be a stream error, every
// other request a success, and the report must count them as the records
// do.
func TestLlamaInBandErrors(t *testing.T) {
	if smoke() {
		t.Skip("-short")
	}
	srv := startLlama(t, "model-nofix")
	tr := newTraces(t)
	failed := 0
	for _, api := range []string{"completions", "chat"} {
		t.Run(api, func(t *testing.T) {
			r := runTrace(t, srv, tr.gen(t, llamaSpec(api, 4, 16)))
			n := 0
			for _, rec := range r.recs.Requests {
				switch {
				case rec.ErrorClass == "":
					if rec.Status != 200 || rec.FinishReason == "" {
						t.Errorf("%s: succeeded with status %d, finish reason %q", rec, rec.Status, rec.FinishReason)
					}
				case rec.ErrorClass != "stream" || rec.Status != 200 || !strings.Contains(rec.Error, "error event"):
					t.Errorf("%s: %s (status %d): %s; want a stream error event after HTTP 200", rec, rec.ErrorClass, rec.Status, rec.Error)
				default:
					n++
				}
			}
			if len(r.recs.Requests) != 16 {
				t.Errorf("%d records, want 16", len(r.recs.Requests))
			}
			var rep struct {
				All struct {
					Requests int `json:"requests"`
					OK       int `json:"ok"`
					Errors   struct {
						Failed  int            `json:"failed"`
						ByClass map[string]int `json:"by_class"`
					} `json:"errors"`
				} `json:"all"`
			}
			readReportInto(t, r.dir, &rep)
			if a := rep.All; a.Requests != 16 || a.OK != 16-n || a.Errors.Failed != n || a.Errors.ByClass["stream"] != n {
				t.Errorf("report.json: %d requests, %d ok, %d failed, by class %v; the records: 16 requests, %d stream errors", a.Requests, a.OK, a.Errors.Failed, a.Errors.ByClass, n)
			}
			failed += n
		})
	}
	// About a third of this model's streams fail (docs of the peers): none
	// in 32 is a chance of about 1 in 100,000.
	if failed == 0 {
		t.Errorf("no stream failed in band: model-nofix should break some")
	}
}
