//go:build !race

package client

// raceDetector reports a -race build, whose instrumentation slows the
// client and the test server several times over.
const raceDetector = false
