package harness

import (
	"crypto/sha256"
	"fmt"
	"time"

	"surge/trace"
)

// MaxStartLate is how late a run may start after Config.StartAt: a
// shard a little late still runs, its lag showing in its records; one
// later would not run with the others.
const MaxStartLate = 10 * time.Second

// ShardOf returns the part of w that shard sh sends (all of w when sh is
// nil): its sessions, and each closed-loop client's concurrency split
// across the shards (shard i gets ⌊C/N⌋, plus one for i < C mod N). The
// workload hash stays the whole workload's, so that shards can be merged
// and checked.
func ShardOf(w *Workload, sh *trace.Shard) (*Workload, error) {
	if sh == nil {
		return w, nil
	}
	out := *w
	out.Header.Clients = append([]trace.ClientInfo(nil), w.Header.Clients...)
	for i := range out.Header.Clients {
		c := &out.Header.Clients[i]
		if c.Concurrency == 0 {
			continue
		}
		if c.Concurrency < sh.Count {
			return nil, ConfigError{fmt.Errorf("--shard %s: client %q keeps %d requests in flight, fewer than %d shards: use at most %d shards", sh, c.Name, c.Concurrency, sh.Count, c.Concurrency)}
		}
		c.Concurrency = c.Concurrency/sh.Count + btoi(sh.Index < c.Concurrency%sh.Count)
	}
	out.Sessions = nil
	for i, k := range trace.AssignShards(w.Sessions, sh.Count) {
		if k == sh.Index {
			out.Sessions = append(out.Sessions, w.Sessions[i])
		}
	}
	return &out, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// shardSalt is the salt of a shard: as given, or when it is empty for a
// shard with a start instant, a nonce drawn from that instant, so that
// every shard of one run salts alike and sessions on different shards
// share prefixes as they would in one process.
func shardSalt(salt string, sh *trace.Shard, startAt time.Time) string {
	if salt != "" || sh == nil || startAt.IsZero() {
		return salt
	}
	sum := sha256.Sum256([]byte(startAt.UTC().Format(time.RFC3339Nano)))
	return trace.NonceOf(sum[:])
}
