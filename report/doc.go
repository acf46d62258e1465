// Package report renders a metrics.Summary for people (Text), programs
// (JSON) and spreadsheets (CSV). It computes nothing: every figure it
// prints is a field of the summary, so each can be traced back to its
// definition in package metrics and from there to the records.
package report
