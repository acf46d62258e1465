// Package dataset reads prompts from the files users download for
// benchmarks: ShareGPT JSON (what vllm bench serve --dataset-name sharegpt
// reads), JSON Lines with a prompt, text or messages field, CSV with a
// prompt column, and Parquet with a prompt column.
//
// Read streams a file once, record by record (a Parquet file: once for
// its hash, then page by page), and keeps only each
// record's text (its system prompt, user messages and the replies the
// file records), so a file is read in memory proportional to its text,
// never its whole bytes at once beyond that. A file is at most MaxBytes
// and MaxEntries records; a record of a line-based format at most
// MaxRecordBytes. A malformed record is an error naming the file and the
// line (or Parquet row) where it starts. The Set's Hash is the SHA-256 of
// the file's bytes, so a trace names exactly the data it was made from.
//
// The package imports nothing from surge: token counts, filters and
// fitting prompts to lengths belong to the workload that uses it.
package dataset
