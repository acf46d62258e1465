package openai_test

import (
	"fmt"

	"surge/openai"
)

func ExampleRequest_AppendJSON() {
	r := openai.Request{
		Model:         "m",
		Messages:      []openai.Message{{Role: "user", Content: "Say \"hi\""}},
		MaxTokens:     16,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	var buf []byte // reuse across requests
	buf = r.AppendJSON(buf[:0])
	fmt.Println(string(buf))
	// Output:
	// {"model":"m","messages":[{"role":"user","content":"Say \"hi\""}],"max_tokens":16,"stream":true,"stream_options":{"include_usage":true}}
}

func ExampleParser() {
	reads := []string{
		"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"reasoning_content\":\"Hm\"}}]}\n",
		"\n: keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\r\n\r\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}\n\ndata: [DO",
		"NE]\n\n",
	}
	var p openai.Parser
	for i, read := range reads {
		p.Feed([]byte(read))
		for ev, ok := p.Next(); ok; ev, ok = p.Next() {
			if ev.Done() {
				fmt.Printf("read %d: done\n", i)
				continue
			}
			in, err := openai.Decode(ev.Data)
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Printf("read %d: token=%v reasoning=%v answer=%v finish=%q usage=%v\n",
				i, in.Token(), in.Reasoning, in.Answer, in.FinishReason, in.Usage)
		}
	}
	// Output:
	// read 0: token=false reasoning=false answer=false finish="" usage={0 0 0}
	// read 1: token=true reasoning=true answer=false finish="" usage={0 0 0}
	// read 1: token=true reasoning=false answer=true finish="stop" usage={0 0 0}
	// read 1: token=false reasoning=false answer=false finish="" usage={5 2 0}
	// read 2: done
}
