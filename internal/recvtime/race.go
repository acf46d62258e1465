//go:build race

package recvtime

// raceEnabled says the race detector is on (see conn.recv).
const raceEnabled = true
