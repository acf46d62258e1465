// Package interop tests surge end to end, as a user runs it, against
// inference servers nobody here wrote: llama.cpp's llama-server and
// llm-d-inference-sim, from the peers folder beside the checkout
// (../shared/peers, or $SURGE_PEERS). It holds tests only; docs/interop.md
// says what they check and how to run them.
package interop
