package trace

import (
	"fmt"
	"slices"
)

// Merge merges the records of several runs of one workload into one set,
// record by record, so that statistics over the result are exact: the
// shards of a sharded run, which started together. (Runs one after the
// other merge too, but their rates then count the time between them.) It
// refuses runs of different
// workloads, and shards of different splits or the same shard twice; a
// shard set with shards missing merges, and warnings say which are
// missing.
//
// Offsets are rebased onto the earliest start among the runs, so shards
// that started together share one timeline. The end line sums what the
// runs scheduled, sent and dropped, ends at the latest end, and is
// interrupted if any run was (or had no end line, which then is nil).
// names label the runs in messages.
func Merge(runs []*Records, names []string) (*Records, []string, error) {
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("no records to merge")
	}
	if len(runs) == 1 {
		return runs[0], nil, nil
	}
	for i, r := range runs[1:] {
		if r.Header.WorkloadHash != runs[0].Header.WorkloadHash {
			return nil, nil, fmt.Errorf("%s: records of another workload (%s, %s has %s): merge only runs of one workload",
				names[i+1], r.Header.WorkloadHash, names[0], runs[0].Header.WorkloadHash)
		}
	}
	shards, warnings, err := shardSet(runs, names)
	if err != nil {
		return nil, nil, err
	}
	start := runs[0].Header.Start
	for _, r := range runs[1:] {
		if r.Header.Start.Before(start) {
			start = r.Header.Start
		}
	}
	out := &Records{Header: runs[0].Header}
	out.Header.Start, out.Header.Shard = start, shards
	out.Header.FaultWindows = slices.Clone(out.Header.FaultWindows)
	for i := range out.Header.FaultWindows { // offsets of runs[0]'s start, rebased
		out.Header.FaultWindows[i].AtUS += runs[0].Header.Start.Sub(start).Microseconds()
	}
	var end RunEnd
	complete := true
	for _, r := range runs {
		shift := r.Header.Start.Sub(start).Microseconds()
		for _, rec := range r.Records {
			rec.IntendedUS += shift
			rec.SentUS += shift
			out.Records = append(out.Records, rec)
		}
		if r.End == nil {
			complete = false
			continue
		}
		end.Scheduled += r.End.Scheduled
		end.Sent += r.End.Sent
		end.Dropped += r.End.Dropped
		end.Interrupted = end.Interrupted || r.End.Interrupted
		if end.Aborted == "" {
			end.Aborted = r.End.Aborted
		}
		end.DurationUS = max(end.DurationUS, r.End.DurationUS+shift)
		if r.End.End.After(end.End) {
			end.End = r.End.End
		}
	}
	if complete {
		out.End = &end
	}
	return out, warnings, nil
}

// shardSet checks the shards of runs: all sharded or none, one split, no
// shard twice. It returns the merged set (nil for unsharded runs) and a
// warning naming the missing shards.
func shardSet(runs []*Records, names []string) (*Shard, []string, error) {
	first := runs[0].Header.Shard
	if first == nil {
		for i, r := range runs {
			if r.Header.Shard != nil {
				return nil, nil, fmt.Errorf("%s is shard %s of a sharded run, %s is a whole run: merge one or the other", names[i], r.Header.Shard, names[0])
			}
		}
		return nil, nil, nil
	}
	seen := map[int]string{}
	for i, r := range runs {
		sh := r.Header.Shard
		switch {
		case sh == nil:
			return nil, nil, fmt.Errorf("%s is a whole run, %s shard %s of a sharded one: merge one or the other", names[i], names[0], first)
		case sh.Count != first.Count:
			return nil, nil, fmt.Errorf("%s is shard %s, %s shard %s: merge the shards of one split", names[i], sh, names[0], first)
		case seen[sh.Index] != "":
			return nil, nil, fmt.Errorf("%s and %s are both shard %s: merge each shard once", seen[sh.Index], names[i], sh)
		}
		seen[sh.Index] = names[i]
	}
	set := &Shard{Count: first.Count}
	var missing []int
	for k := range first.Count {
		if seen[k] != "" {
			set.Merged = append(set.Merged, k)
		} else {
			missing = append(missing, k)
		}
	}
	var warnings []string
	if len(missing) > 0 {
		warnings = append(warnings, fmt.Sprintf("merged %d of %d shards: shards %v are missing, so the figures cover part of the workload", len(set.Merged), set.Count, missing))
	}
	slices.Sort(set.Merged)
	return set, warnings, nil
}
