package cli

import "github.com/spf13/cobra"

// examples are the Examples sections of surge's verbs, by name: two or
// three commands each, run from the repository's root (examples/ holds the
// specs), each working as written. Files one verb's examples write
// (chat.jsonl, h100, a100) are read by the next verbs'.
func examples() map[string]string {
	return map[string]string{
		"validate": `  surge validate examples/chat.yaml
  surge validate examples/*.yaml`,
		"gen": `  surge gen examples/chat.yaml -o chat.jsonl
  surge gen examples/chat.yaml --seed 7 --requests 100 --no-text | surge inspect -`,
		"inspect": `  surge inspect chat.jsonl
  surge inspect --format json chat.jsonl
  surge inspect h100                  # a run's bundle, from surge sim -o h100`,
		"import": `  surge import AzureLLMInferenceTrace_conv.csv -o azure.jsonl
  surge import ShareGPT_V3_unfiltered_cleaned_split.json --rate 2 -o sharegpt.jsonl
  surge import log.csv --columns at=ts,input=prompt_tokens,output=completion_tokens -o log.jsonl`,
		"fit": `  surge fit chat.jsonl -o fitted.yaml --check
  surge fit AzureLLMInferenceTrace_conv.csv --flat -o azure.yaml`,
		"run": `  surge run examples/chat.yaml                  # against the built-in engine, ~40 s
  surge run examples/chat.yaml --target http://127.0.0.1:8000 --model Llama-3.1-8B -o chat-run
  surge run --target http://127.0.0.1:8000 --model Llama-3.1-8B --random-input-len 1024 --random-output-len 128 --request-rate 10 --num-prompts 300`,
		"sim": `  surge sim examples/chat.yaml --engine-model llama-3.1-8b --gpu h100 -o h100
  surge sim examples/chat.yaml --engine-model llama-3.1-8b --gpu a100 -o a100
  surge sim examples/agent.yaml --engine-model llama-3.3-70b --gpu h100 --tp 4 --replicas 2 --router least-loaded`,
		"sweep": `  surge sweep examples/chat.yaml --sim --rates 2,4,8,16 -o chat-sweep
  surge sweep examples/chat.yaml --sim --auto --slo 'ttft.p99<=2s'
  surge sweep examples/chat.yaml --rates 2,4 --min-requests 0 --target http://127.0.0.1:8000 --model Llama-3.1-8B`,
		"report": `  surge report h100
  surge report h100 --html h100.html --format json
  surge report chat-sweep             # a sweep, from surge sweep -o chat-sweep`,
		"compare": `  surge compare h100 a100
  surge compare h100 a100 --fail-on 'ttft.p99:+10%,output_throughput:-5%'
  surge compare h100 a100 --format markdown`,
		"parity": `  surge parity --target http://127.0.0.1:8000 --target http://127.0.0.1:8001
  surge parity --target vllm=http://127.0.0.1:8000 --target sglang=http://127.0.0.1:8001 --fail-on-diff`,
		"serve": `  surge serve --engine-model llama-3.1-8b --gpu h100
  surge serve --engine-model llama-3.3-70b --gpu h100 --tp 4 --port 8001
  surge serve --engine-model llama-3.1-8b --gpu h100 --faults 'status=429:0.1,reset:1%'`,
		"k8s": `  surge k8s examples/chat.yaml --shards 4 --target http://vllm:8000
  surge k8s examples/chat.yaml --shards 4 --target http://vllm:8000 --output-volume pvc:surge-out -o manifests`,
		"selftest": `  surge selftest
  surge selftest --concurrency 64,256 --duration 5s --no-save`,
		"version": `  surge version
  surge --version`,
	}
}

// addExamples sets the Example of each of root's verbs from examples.
func addExamples(root *cobra.Command) {
	ex := examples()
	for _, c := range root.Commands() {
		if e, ok := ex[c.Name()]; ok {
			c.Example = e
		}
	}
}
