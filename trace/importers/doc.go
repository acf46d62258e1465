// Package importers turns public traces of LLM serving into surge
// sessions, so they can be replayed with surge run or surge sim and
// analysed with surge inspect.
//
// Each importer reads one format and returns sessions that keep what the
// trace records: timing within a session as waits between its turns,
// lengths as exact token counts, and prefix sharing as content blocks
// (trace.Turn.Blocks), so that requests the trace says share a prefix
// share it in the replay at the trace's block size.
package importers
