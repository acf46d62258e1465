package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"surge/trace"
)

// shardFlags choose the part of a workload a run sends and when it starts.
type shardFlags struct {
	shard   string
	startAt string
}

func (f *shardFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.shard, "shard", "", "send only shard I of N of the workload (I/N, I from 0): a deterministic split by session, balanced in load; with --start-at and no --salt, every shard salts with one nonce drawn from the start instant")
	fs.StringVar(&f.startAt, "start-at", "", "start the schedule at this instant (RFC 3339, e.g. 2026-11-30T12:00:00Z), so that every shard starts together")
}

// parse reads --shard and --start-at.
func (f shardFlags) parse() (*trace.Shard, time.Time, error) {
	var sh *trace.Shard
	if f.shard != "" {
		s, err := trace.ParseShard(f.shard)
		if err != nil {
			return nil, time.Time{}, usageError{fmt.Errorf("--shard: %w", err)}
		}
		sh = &s
	}
	at, err := trace.ParseStart(f.startAt)
	if err != nil {
		return nil, time.Time{}, usageError{fmt.Errorf("--start-at %w", err)}
	}
	return sh, at, nil
}
