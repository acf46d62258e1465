// Package conformance checks that the two implementations of a trace's
// meaning agree: the driver, which sends sessions in real time (here to
// the built-in engine, sim/server, on a loopback port), and sim/virtual,
// which runs them through the same engine in virtual time.
//
// docs/trace.md defines what a session's turns mean: a turn is sent once
// its parent and every turn in After have finished, plus its WaitUS; a
// turn whose dependency failed is not sent; a turn continuing a
// conversation carries its parent's messages and reply (the server's, or
// the trace's when history is pinned). The tests compile small specs of
// every session kind (chats with live and pinned history, an agent episode
// with parallel tool calls and sub-agents, RAG, batch jobs, and turns the
// server refuses), run each through both, and check, turn by turn, that
// both send the same turns, each after its dependencies finished and its
// wait passed, with prompts of the same length built by the same rule and,
// in the driver, the bytes docs/trace.md prescribes.
//
// What the virtual run does not model is left out: it injects no faults
// (surge sim runs faulted requests as healthy) and ignores the salt, so
// the traces here carry neither; its replies have the trace's lengths, so
// with natural output lengths each side is checked against the rule with
// its own reply lengths.
//
// The package holds tests only.
package conformance
