package workload

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream labels keep the RNG of a client's arrivals apart from the RNGs of
// its sessions.
const (
	arrivalStream uint64 = 0x61727269 // "arri"
	sessionStream uint64 = 0x73657373 // "sess"
)

// nameKey hashes a client name into a 64-bit key (FNV-1a, stable across
// platforms and Go versions).
func nameKey(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// mix is the SplitMix64 finaliser: a bijection that spreads nearby inputs
// (session 17 and 18) over the whole 64-bit range.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// arrivalRNG returns the generator of a client's arrival stream.
func arrivalRNG(seed, client uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(seed^arrivalStream), mix(client)))
}

// seedSession reseeds pcg for session index of a client.
func seedSession(pcg *rand.PCG, seed, client uint64, index int) {
	pcg.Seed(mix(seed^sessionStream), mix(client^mix(uint64(index))))
}
