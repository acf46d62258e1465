package harness

import (
	"fmt"

	"surge/openai"
)

// JSONObject is a JSON object given on the command line (--extra-body
// '{"priority": 1}'); as a flag value it refuses anything else.
type JSONObject []byte

// Set checks and keeps s.
func (j *JSONObject) Set(s string) error {
	if err := openai.CheckObject([]byte(s)); err != nil {
		return fmt.Errorf("%q: %w", s, err)
	}
	*j = JSONObject(s)
	return nil
}

// String returns the object as given.
func (j *JSONObject) String() string { return string(*j) }

// Type names the flag's value for help texts.
func (j *JSONObject) Type() string { return "json" }
