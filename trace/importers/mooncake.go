package importers

import (
	"encoding/json"
	"fmt"
	"io"
)

// MooncakeBlockTokens is the size of the blocks a Mooncake trace's
// hash_ids name, in tokens.
const MooncakeBlockTokens = 512

// maxBlockID bounds the ids of a trace's blocks, so that Options.Scope
// can take the bits above them.
const maxBlockID = 1<<40 - 1

// mooncakeRow is one line of a Mooncake trace. Pointers tell a missing
// field from a zero one.
type mooncakeRow struct {
	Timestamp *float64 `json:"timestamp"`     // milliseconds from the trace's start
	Input     *int     `json:"input_length"`  // tokens
	Output    *int     `json:"output_length"` // tokens
	HashIDs   []uint64 `json:"hash_ids"`      // a chained id per 512-token block of the prompt
}

// mooncakeRows reads the lines of a Mooncake trace.
type mooncakeRows struct {
	lr *lineReader
}

// NewMooncake returns a Stream of the Mooncake (Kimi) trace in r, JSON
// Lines of timestamp (ms), input_length, output_length and hash_ids: a
// session per line at its timestamp's offset from the first line's,
// asking for input_length of input and exactly output_length of output.
// The prompt is the blocks hash_ids name, 512 tokens each and equal ids
// meaning equal content across the file (Options.Scope keeps files
// apart), so that the trace's prefix sharing is replayed. The last block
// of a prompt whose length is not a multiple of 512 is cut short, as in
// the trace (len(hash_ids) = ⌈input_length/512⌉): it becomes the turn's
// TailBlock, which a prompt shares only with one ending in the same tail.
// Blank lines are skipped. Rows are read as Next asks.
func NewMooncake(r io.Reader, opts Options) *Stream {
	return newStream(&mooncakeRows{lr: newLineReader(r)}, opts)
}

// next parses the next non-blank line into q.
func (mr *mooncakeRows) next(q *request) (int, error) {
	line, err := nextLine(mr.lr)
	if err != nil {
		return mr.lr.line, err
	}
	if err := parseMooncakeRow(line, q); err != nil {
		return mr.lr.line, rowError(mr.lr.line, err)
	}
	return mr.lr.line, nil
}

// parseMooncakeRow parses one line into q.
func parseMooncakeRow(line []byte, q *request) error {
	var row mooncakeRow
	if err := json.Unmarshal(line, &row); err != nil {
		return fmt.Errorf("not a Mooncake row: %w", err)
	}
	if row.Timestamp == nil || row.Input == nil || row.Output == nil {
		return fmt.Errorf("missing timestamp, input_length or output_length")
	}
	at, err := seconds(*row.Timestamp / 1e3)
	if err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	*q = request{at: at, in: *row.Input, out: *row.Output}
	if err := checkTokens(q.in, q.out); err != nil {
		return err
	}
	if row.HashIDs == nil {
		return nil // no content recorded: the prompt is the request's own
	}
	return mooncakeBlocks(row.HashIDs, q)
}

// mooncakeBlocks sets q's blocks from the hash ids of its prompt, one per
// 512-token block, the last one cut short when 512 does not divide the
// input: ⌊in/512⌋ full blocks, and a tail block of in mod 512 tokens.
func mooncakeBlocks(ids []uint64, q *request) error {
	const bt = MooncakeBlockTokens
	if want := (q.in + bt - 1) / bt; len(ids) != want {
		return fmt.Errorf("%d hash_ids for input_length %d: want ⌈%d/%d⌉ = %d", len(ids), q.in, q.in, bt, want)
	}
	for i, id := range ids {
		if id > maxBlockID {
			return fmt.Errorf("hash_ids[%d] = %d: want at most 2^40-1", i, id)
		}
	}
	full := q.in / bt
	q.blocks, q.blockTokens = ids[:full], bt
	if full < len(ids) {
		tail := ids[full]
		q.tail = &tail
	}
	return nil
}
