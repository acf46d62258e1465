// Package importers turns public traces of LLM serving into surge
// sessions, so they can be replayed with surge run or surge sim and
// analysed with surge inspect.
//
// Each importer reads one format and returns sessions that keep what the
// trace records: arrivals as start offsets (or, within a conversation,
// waits between its turns), lengths as exact token counts, and prefix
// sharing as content blocks (trace.Turn.Blocks and TailBlock), so that
// requests the trace says share a prefix share it in the replay at the
// trace's block size.
//
// Request-level traces (Azure 2023 and 2024, Vidur, Mooncake) are read
// as a Stream: a Source yielding a session per row as it is read, so a
// trace of any length imports in bounded memory. Rows must be in time
// order; a malformed or out-of-order row is a *RowError naming its file
// and line, or, with Options.SkipBad, skipped and counted. Merge
// interleaves several files in start order, and Reshaped selects a time
// window, rescales time, samples sessions and caps lengths. Detect names
// a file's format from its first bytes. WEKA conversations are read a
// file at a time (WEKA) or from the flattened CSV (WEKARequests).
//
// BurstGPT rows are read as a stream too, a client per model and log
// type (NewBurstGPT); so is any CSV or JSON Lines file given a column
// mapping (NewColumns), whose rows sharing a session id become the turns
// of a conversation. ShareGPT conversations (NewShareGPT) keep their
// text: each answered human message is a turn whose planned reply is the
// answer, token counts coming from the tokenizer the caller passes, and
// starts paced at a rate the caller chooses, since ShareGPT records no
// times.
//
// Import is surge import as one call: it reads the named files of an
// fs.FS in any of these formats (detected by DetectFiles, or named) and
// writes a surge trace to an io.Writer, reshaped as ImportOptions say,
// returning what it wrote and skipped as Stats. OpenRequests returns the
// merged requests of such files as a Source, for readers other than the
// trace writer, such as surge fit.
package importers
