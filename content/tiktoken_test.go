package content

import "testing"

func TestBuiltinRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		tok, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		text := "Hello, world! Summarise the passage below in 3 sentences."
		ids := tok.Encode(text)
		if len(ids) == 0 || tok.Decode(ids) != text {
			t.Errorf("%s: round trip of %q gave %v -> %q", name, text, ids, tok.Decode(ids))
		}
	}
	if _, err := Builtin("nope"); err == nil {
		t.Error("Builtin(nope) succeeded")
	}
}
