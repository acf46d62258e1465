package dataset

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"strings"
)

// Format names a dataset file's layout.
type Format string

// The formats Read takes.
const (
	ShareGPT Format = "sharegpt" // a JSON array (or a sequence) of {id, conversations: [{from, value}]}
	JSONL    Format = "jsonl"    // one JSON object a line
	CSV      Format = "csv"      // a header row naming the columns, then a record a row
	Parquet  Format = "parquet"  // a Parquet file with a string column
)

// Formats returns the names of the formats, for the spec's format key.
func Formats() []string {
	return []string{string(ShareGPT), string(JSONL), string(CSV), string(Parquet)}
}

// Bounds of what Read accepts. Text is held in memory, so MaxBytes bounds
// a dataset's memory too.
const (
	MaxBytes       = 2 << 30  // bytes of a dataset file
	MaxEntries     = 4 << 20  // records of a dataset file
	MaxRecordBytes = 64 << 20 // bytes of one JSON Lines line or ShareGPT conversation
)

// Turn is one user message and the reply the file records after it
// ("" when it records none).
type Turn struct {
	Prompt string
	Reply  string
}

// Entry is one record of a dataset: its system prompt ("" for none) and
// its turns, at least one. Row is the line (Parquet: the row, from 1) it
// starts at, for messages.
type Entry struct {
	Row    int
	ID     string
	System string
	Turns  []Turn
}

// Set is the entries of one dataset file in file order.
type Set struct {
	Name    string // the file's name as given
	Format  Format
	Hash    string // "sha256:" and the hex digest of the file's bytes
	Entries []Entry
	Skipped int // records with no text to send (an empty prompt, a conversation with no human message)
}

// Options say how Read reads a file.
type Options struct {
	// Format is the file's format; "" detects it (Detect).
	Format Format
	// Field names the field (JSON Lines) or column (CSV, Parquet) that
	// holds each prompt; "" takes JSON Lines' prompt, text or messages
	// and CSV's and Parquet's prompt.
	Field string
	// Conversations keeps every turn of a conversation; otherwise each
	// entry keeps only its first.
	Conversations bool
}

// Read reads the dataset at name in fsys as opts say.
func Read(fsys fs.FS, name string, opts Options) (*Set, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	if info.Size() > MaxBytes {
		return nil, fmt.Errorf("dataset %s: %d bytes, more than the %d a dataset may have: cut it into smaller files", name, info.Size(), int64(MaxBytes))
	}
	br := bufio.NewReaderSize(f, 64<<10)
	format := opts.Format
	if format == "" {
		head, _ := br.Peek(512)
		if format, err = Detect(name, head); err != nil {
			return nil, fmt.Errorf("dataset %s: %w", name, err)
		}
	}
	set := &Set{Name: name, Format: format}
	if format == Parquet {
		err = readParquet(f, info.Size(), set, opts)
	} else {
		err = readStream(br, set, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	if len(set.Entries) == 0 {
		return nil, fmt.Errorf("dataset %s: no prompt in %s %s", name, format, describeField(format, opts.Field))
	}
	return set, nil
}

// readStream reads a streamed format from f, hashing what it reads.
func readStream(f io.Reader, set *Set, opts Options) error {
	h := sha256.New()
	r := &limited{r: io.TeeReader(f, h), left: MaxBytes}
	var err error
	switch set.Format {
	case ShareGPT:
		err = readShareGPT(r, set, opts)
	case JSONL:
		err = readJSONL(r, set, opts)
	case CSV:
		err = readCSV(r, set, opts)
	default:
		err = fmt.Errorf("unknown format %q: want one of %s", set.Format, strings.Join(Formats(), ", "))
	}
	if err != nil {
		return err
	}
	// Hash the whole file even when the reader stopped before its end.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	set.Hash = digest(h)
	return nil
}

// digest is "sha256:" and h's hex sum.
func digest(h hash.Hash) string { return "sha256:" + hex.EncodeToString(h.Sum(nil)) }

// add appends an entry, refusing more than MaxEntries.
func (s *Set) add(e Entry, opts Options) error {
	if len(e.Turns) == 0 {
		s.Skipped++
		return nil
	}
	if len(s.Entries) == MaxEntries {
		return fmt.Errorf("more than %d records: cut the file into smaller ones", MaxEntries)
	}
	if !opts.Conversations && len(e.Turns) > 1 {
		e.Turns = []Turn{e.Turns[0]} // a copy, so the later turns' text is not kept
	}
	s.Entries = append(s.Entries, e)
	return nil
}

// describeField says where prompts were looked for, for "no prompt".
func describeField(f Format, field string) string {
	switch {
	case f == ShareGPT:
		return "(no conversation with a human message)"
	case field != "":
		return fmt.Sprintf("(field %q)", field)
	case f == JSONL:
		return `(fields "prompt", "text", "messages" or "conversations")`
	}
	return `(column "prompt")`
}

// errTooBig is a file that grew past MaxBytes while read.
var errTooBig = fmt.Errorf("more than %d bytes", int64(MaxBytes))

// limited reads at most left bytes of r, then fails with errTooBig.
type limited struct {
	r    io.Reader
	left int64
}

// Read reads from r, failing once more than the limit has been read.
func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			return 0, errTooBig
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// ext returns name's extension, lower case, without ".gz" handling.
func ext(name string) string { return strings.ToLower(path.Ext(name)) }

// errNoFormat is a file whose format neither its name nor its first bytes tell.
var errNoFormat = errors.New("cannot tell the format from the name or the first bytes: give format (sharegpt, jsonl, csv or parquet)")
