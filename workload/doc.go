// Package workload compiles a spec and a seed into the sessions of a trace.
//
// Determinism: every random choice comes from a PCG generator seeded from
// the spec's seed and the client's name: one generator per client for its
// arrival stream, and one per session (seed, client, session index) for its
// lengths and text. Session i of client c is therefore the same whatever
// other clients, filters, shards or run lengths are chosen, and the output
// never depends on the clock, map order, GOMAXPROCS or the environment.
package workload
