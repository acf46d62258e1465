package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"surge/trace"
)

// maxStartLate is how far in the past --start-at may be: a shard started a
// little late still runs, its lag showing in its records.
const maxStartLate = 10 * time.Second

// shardFlags choose the part of a workload a run sends and when it starts.
type shardFlags struct {
	shard   string
	startAt string
}

func (f *shardFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.shard, "shard", "", "send only shard I of N of the workload (I/N, I from 0): a deterministic split by session, balanced in load; with --start-at and no --salt, every shard salts with one nonce drawn from the start instant")
	fs.StringVar(&f.startAt, "start-at", "", "start the schedule at this instant (RFC 3339, e.g. 2026-11-30T12:00:00Z), so that every shard starts together")
}

// parse reads the flags: the shard (nil: the whole workload) and the
// start instant (zero: now).
func (f shardFlags) parse(now time.Time) (*trace.Shard, time.Time, error) {
	var sh *trace.Shard
	if f.shard != "" {
		s, err := trace.ParseShard(f.shard)
		if err != nil {
			return nil, time.Time{}, usageError{fmt.Errorf("--shard: %w", err)}
		}
		sh = &s
	}
	if f.startAt == "" {
		return sh, time.Time{}, nil
	}
	at, err := time.Parse(time.RFC3339Nano, f.startAt)
	if err != nil {
		return nil, time.Time{}, usageError{fmt.Errorf("--start-at %q: want an RFC 3339 instant like 2026-11-30T12:00:00Z", f.startAt)}
	}
	if late := now.Sub(at); late > maxStartLate {
		return nil, time.Time{}, fmt.Errorf("--start-at %s is %v in the past: start the shards again with a later instant", f.startAt, late.Round(time.Second))
	}
	return sh, at, nil
}

// shardOf returns the part of in that shard sh sends: its sessions, and
// each closed-loop client's concurrency split across the shards (shard i
// gets ⌊C/N⌋, plus one for i < C mod N). The workload hash stays the
// whole workload's, so that shards can be merged and checked.
func shardOf(in *workloadInput, sh *trace.Shard) (*workloadInput, error) {
	if sh == nil {
		return in, nil
	}
	out := *in
	out.header.Clients = append([]trace.ClientInfo(nil), in.header.Clients...)
	for i := range out.header.Clients {
		c := &out.header.Clients[i]
		if c.Concurrency == 0 {
			continue
		}
		if c.Concurrency < sh.Count {
			return nil, usageError{fmt.Errorf("--shard %s: client %q keeps %d requests in flight, fewer than %d shards: use at most %d shards", sh, c.Name, c.Concurrency, sh.Count, c.Concurrency)}
		}
		c.Concurrency = c.Concurrency/sh.Count + btoi(sh.Index < c.Concurrency%sh.Count)
	}
	out.sessions = nil
	for i, k := range trace.AssignShards(in.sessions, sh.Count) {
		if k == sh.Index {
			out.sessions = append(out.sessions, in.sessions[i])
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

// shardSalt is the salt flag of a shard: as given, or when it is empty
// for a shard with a start instant, a nonce drawn from that instant, so
// that every shard of one run salts alike and sessions on different
// shards share prefixes as they would in one process.
func shardSalt(flag string, sh *trace.Shard, startAt time.Time) string {
	if flag != "" || sh == nil || startAt.IsZero() {
		return flag
	}
	sum := sha256.Sum256([]byte(startAt.UTC().Format(time.RFC3339Nano)))
	return hex.EncodeToString(sum[:4])
}
