package content_test

import (
	"fmt"

	"surge/content"
)

func ExampleOpen() {
	tok, err := content.Open("testdata/hf/tiny.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	ids := tok.Encode("hello world<|eot|>")
	fmt.Println(tok.Name(), ids, tok.Decode(ids))

	_, err = content.Open("llama3")
	fmt.Println(err)
	// Output:
	// hf:tiny [259 264 269] hello world<|eot|>
	// tokenizer "llama3": not a built-in (o200k_base, cl100k_base) and no file at that path
}
