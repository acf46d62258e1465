package trace

// Fault is a fault a request carries on purpose (a spec's faults block),
// for the driver to inject and the report to set apart.
type Fault struct {
	Kind string `json:"kind"` // one of the Fault* kinds
	// Tokens is the prompt's length for FaultOverContext, and for
	// FaultCancel the tokens streamed before the client gives up.
	Tokens int `json:"tokens,omitempty"`
	// AfterUS is, for FaultCancel, the time from the send after which the
	// client gives up.
	AfterUS int64 `json:"after_us,omitempty"`
	// BytesPerS is the reading speed of FaultSlowReader.
	BytesPerS int `json:"bytes_per_s,omitempty"`
	// StallUS is how long FaultStall stops reading after the first token.
	StallUS int64 `json:"stall_us,omitempty"`
	// Param names the parameter FaultInvalidParams gets wrong:
	// "max_tokens" (negative) or "model" (one the server does not serve).
	Param string `json:"param,omitempty"`
}

// Fault kinds. The per-request ones are carried by a Turn; storms and
// bursts are windows of a run (FaultWindow).
const (
	FaultEmptyPrompt   = "empty_prompt"
	FaultOverContext   = "over_context"
	FaultMalformedJSON = "malformed_json"
	FaultInvalidParams = "invalid_params"
	FaultChurn         = "churn"
	FaultCancel        = "cancel"
	FaultSlowReader    = "slow_reader"
	FaultStall         = "stall"
	FaultStorm         = "storm"
	FaultBurst         = "burst"
)

// FaultWindow is a span of a run in which a client injects a fault on
// its traffic as a whole: a storm cancels Fraction of its requests in
// flight at AtUS; a burst multiplies its arrival rate by Factor over
// [AtUS, AtUS+ForUS).
type FaultWindow struct {
	Kind     string  `json:"kind"` // FaultStorm or FaultBurst
	Client   string  `json:"client"`
	AtUS     int64   `json:"at_us"`
	ForUS    int64   `json:"for_us,omitempty"`
	Fraction float64 `json:"fraction,omitempty"`
	Factor   float64 `json:"factor,omitempty"`
}
