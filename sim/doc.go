// Package sim is surge's built-in serving engine: it models a
// continuous-batching LLM server (vLLM V1 style) in real or virtual time,
// for capacity planning and for testing the client and driver without GPUs.
//
// The package has two halves. The engine (engine*.go, kv*.go, sched*.go)
// schedules requests into steps under a token budget and a KV-block pool;
// the catalogs and the cost model (catalog*.go, cost*.go) say what each
// step costs on given hardware. The engine asks a Coster, normally a
// *CostModel, for the duration of every step.
//
// # Scheduling and preemption
//
// As in vLLM V1 (vllm/v1/core/sched/scheduler.py), a step first gives the
// running sequences their tokens (a decode one, a prefill chunk what the
// budget leaves), allocating only the blocks those tokens need, then
// admits waiting ones while the budget, max-num-seqs and the free blocks
// for their first chunk allow; there is no watermark and no reservation
// for the tokens a request will generate, so a cache holding long
// requests is overcommitted. When a running sequence needs a block and
// none is free, the most recently admitted sequence not yet scheduled is
// preempted by recompute and goes back to the head of the queue. With
// prefix caching (vLLM's default) the full blocks it computed, prompt and
// output, stay cached for it, least recently used first to go, and it
// resumes from those still there, as vLLM resumes from its own hashed
// blocks; without prefix caching it recomputes everything, and long
// prompts can thrash, as vLLM V1 does (vllm-project/vllm#25538).
//
// # Speculative decoding
//
// With EngineConfig.Speculative on, a decoding sequence drafts up to K
// tokens a step and verifies them with its newest token in one pass (a
// Batch.Verify chunk of K+1 tokens after its context); a leading run of
// drafts is accepted, each with probability a = base + (1 − base)·copy
// (Request.Copy), so the step yields m+1 tokens, (1 − a^(K+1))/(1 − a) on
// average, and the rejected drafts' KV slots are freed. A draft model's
// K passes add K·DraftCost times the drafting sequences' decode step.
// Stats counts drafts, drafted and accepted tokens, by position too, as
// vLLM's spec_decode counters do.
//
// # Catalogs
//
// LookupModel and LookupGPU find models (Llama-3.1-8B/70B/405B,
// Llama-3.3-70B, Llama-2-70B, Qwen3-8B/32B, Mixtral-8x7B, Qwen3-30B-A3B,
// Qwen3-235B-A22B, Qwen2.5-7B-1M, DeepSeek-V3/R1 with multi-head latent
// attention and shared experts, gpt-oss-120b/20b with sliding-window
// layers and MXFP4 experts) and accelerators (A100-80GB, H100-SXM,
// H200, GH200-96GB/144GB, B200, GB200, RTX-PRO-6000, L40S, RTX-4090,
// MI300X) by name or
// common alias, each GPU
// with its dense tensor rate per precision (BF16 and FP16; FP8 from
// Hopper, Ada and CDNA3 on; FP4 on Blackwell; MXFP4, weight-only, on
// all). A Hardware binds a Model to
// TP GPUs with weight and KV precisions (ParsePrecision; CheckPrecision
// refuses weights the GPU has no tensor cores for) and derives per-GPU
// weight bytes (layers at the weight precision, embedding and LM head at
// BF16), KV bytes per token and the KV capacity in 16-token blocks the way
// vLLM computes num_gpu_blocks.
//
// # Step time
//
// All quantities are per GPU (TP shards weights, heads and FLOPs evenly).
// For a step with n new tokens (Σ chunk tokens + one per decode) and s
// sequences (chunks + decodes), where a sequence verifying speculative
// drafts is a chunk of its drafts and newest token, every one of which
// produces logits (so s counts them in the LM head's 2·s·h·V), plus the
// draft passes' time (Speculative):
//
//	T = T_lin + T_attn,pre + T_attn,dec + T_comm + c_step + c_layer·L + c_seq·s
//
//	T_lin      = max( [2·n·L·(A + k·F)/P_w + 2·s·h·V/P_a] / TP / η_c,   FLOP / FLOP/s  → s
//	                  [(L·A + L·F·E·(1−(1−k/E)^n))·b_w + h·V·b_a] / TP / (η_m·BW) )   B / B/s → s
//	T_attn,pre = max( 4·L·n_q·d/TP · Σ_chunks t·(c + (t+1)/2) / (η_a·P_bf16),
//	                  KV_tok · Σ_chunks (c + t) / (η_m·BW) )
//	T_attn,dec = max( 4·L·n_q·d/TP · Σ_dec (ctx+1) / (η_a·P_bf16),
//	                  KV_tok · Σ_dec (ctx+1) / (η_m·BW) )
//	T_comm     = 2·L · min( α + (TP−1)·M/B,  2α + 2(TP−1)/TP·M/B )   (TP > 1; M = n·h·2 B)
//
// where A = h·(2·n_q·d + 2·n_kv·d) attention-projection parameters per
// layer, F = 3·h·I parameters per FFN (per expert), E experts of which k are
// active (E = k = 1 for dense; E·(1−(1−k/E)^n) is the expected number of
// experts n tokens touch), h hidden size, V vocabulary, b_w bytes per
// weight (b_a = 2 for the LM head, kept in BF16 or FP16), KV_tok =
// 2·L·max(1, n_kv/TP)·d·b_kv bytes per token, P_w and P_a the dense tensor
// FLOP/s at the weight and activation precisions and BW the HBM bandwidth.
// A chunk of t tokens after c cached ones attends to c+1 … c+t positions.
// The embedding gather is free; the LM head runs once per sequence.
//
// A model with sliding-window layers (gpt-oss: every other layer, a
// 128-token window) counts only its full-attention layers in L of the two
// attention terms and in KV_tok, and adds the same two terms for its
// sliding layers with every context capped at the window W: a decode
// reads min(ctx+1, W) positions, a chunk's tokens Σ min(c+i, W). Its KV
// blocks hold the full layers' tokens; each sequence also holds up to
// ⌈(W−1)/16⌉+1 blocks of its window's (EngineConfig.WindowBlocks, scaled
// by the sliding layers over the full), which it allocates as its tokens
// fill them and keeps while it runs, never cached, as vLLM's hybrid KV
// cache manager keeps a window and frees what it has passed. With MXFP4
// weights the routed experts are read at 4.25 bits and every other
// weight at BF16, all computed at P_bf16 (b_w above is the experts';
// L·A is read at 2 bytes).
//
// T_comm is two all-reduces a layer of the step's activations, M bytes,
// each the cheaper of a one-shot (one synchronisation round of latency α;
// every GPU reads its TP−1 peers' whole messages) and a two-shot
// (reduce-scatter then all-gather: two rounds, 2(TP−1)/TP of M each way),
// as the custom all-reduces of vLLM and TensorRT-LLM and NCCL's tuner pick
// by size. B = η_l·GPU.GroupBW(TP) is the link bandwidth the group uses:
// NVLink through NVSwitches gives any pair the whole per-direction rate,
// a full mesh (MI300X's Infinity Fabric) TP−1 of its seven links, and PCIe
// has no one-shot. Decode messages are small, so their all-reduces cost ≈ α
// whatever the TP and sharding the weights over more GPUs always shortens a
// step; prefill messages are bandwidth-bound.
//
// GEMMTime applies the T_lin roofline to one linear layer (n×in by in×out,
// counting activation bytes as well as weights), for comparing with
// per-operator profiles.
//
// The free parameters are in CostParams; DefaultCostParams holds values
// fitted on published H100 measurements through closed-form predictors
// (docs/sim-fit.md); docs/sim-validation.md runs the engine itself, as
// `surge sim` does (package surge/sim/validation), on every published row
// its flags can express.
package sim
