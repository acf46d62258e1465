// Package arrival turns arrival processes and rate curves into absolute send
// offsets, computed up front from a seeded random source.
//
// A stream is a renewal process of unit rate — gaps G with E[G] = 1 and the
// requested coefficient of variation — mapped onto the rate curve λ(t) by
// time rescaling: if τ₁ < τ₂ < … are the unit-rate epochs, the arrivals are
//
//	tᵢ = Λ⁻¹(τᵢ),  Λ(t) = ∫₀ᵗ λ(u) du  (arrivals),
//
// so the expected number of arrivals in [a, b) is Λ(b) − Λ(a) and, where λ
// is locally constant, the gaps keep their CV. The first epoch τ₁ is drawn
// from the renewal process's equilibrium (forward-recurrence) law rather
// than being a full gap, which makes the unit-rate process stationary: the
// expected count over any window, the first included, is exactly its Λ
// mass, and independent streams do not fire in phase (a constant stream
// starts at a uniform phase within its first gap, not at 0).
//
// Offsets are rounded to the nearest whole microsecond, so traces are
// byte-stable across CPUs and compilers (the float maths may differ in its
// last bits; a µs is many orders of magnitude above that). Rounding is
// monotone, so offsets stay non-decreasing; two arrivals may share an offset.
//
// Everything depends only on the Config and the *rand.Rand passed in.
package arrival
