package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Blocks are the content block ids of an imported prompt. In a trace they
// are written as runs of consecutive ids, [first, count] pairs, since
// importers number new content consecutively and a long prompt holds
// thousands of blocks: [[1,289],[5000,3]] is ids 1…289 then 5000…5002.
// Readers also take a plain list of ids.
type Blocks []uint64

// MarshalJSON writes b as runs.
func (b Blocks) MarshalJSON() ([]byte, error) {
	out := []byte{'['}
	for i := 0; i < len(b); {
		j := i + 1
		for j < len(b) && b[j] == b[j-1]+1 {
			j++
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '[')
		out = strconv.AppendUint(out, b[i], 10)
		out = append(out, ',')
		out = strconv.AppendInt(out, int64(j-i), 10)
		out = append(out, ']')
		i = j
	}
	return append(out, ']'), nil
}

// maxBlocks bounds the ids a trace line may expand to (a 100M-token prompt
// of 16-token blocks), so a hostile run count cannot exhaust memory.
const maxBlocks = 1 << 23

// UnmarshalJSON reads runs, or a plain list of ids.
func (b *Blocks) UnmarshalJSON(data []byte) error {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return fmt.Errorf("blocks: %w", err)
	}
	out := (*b)[:0]
	for _, it := range items {
		if bytes.HasPrefix(bytes.TrimSpace(it), []byte("[")) {
			var run [2]uint64
			if err := json.Unmarshal(it, &run); err != nil {
				return fmt.Errorf("blocks: run %s: want [first id, count]", it)
			}
			if run[1] == 0 || uint64(len(out))+run[1] > maxBlocks || run[0]+run[1] < run[0] {
				return fmt.Errorf("blocks: run [%d, %d]: want a count from 1 to %d", run[0], run[1], maxBlocks-len(out))
			}
			for k := range run[1] {
				out = append(out, run[0]+k)
			}
			continue
		}
		var id uint64
		if err := json.Unmarshal(it, &id); err != nil {
			return fmt.Errorf("blocks: %s: want an id or a [first id, count] run", it)
		}
		out = append(out, id)
	}
	*b = out
	return nil
}
