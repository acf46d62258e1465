package cli

import (
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
