// Package report renders a metrics.Summary for people (Text, HTML),
// programs (JSON) and spreadsheets (CSV), a sweep's result (SweepText,
// HTML), a trace's summary (InspectText) and a bundle's contents and
// checks (BundleText). Every figure it prints is a field of the summary or the sweep, so
// each can be traced back to its definition in package metrics or sweep
// and from there to the records; the HTML report's charts also bin the
// records themselves (distributions, time series).
package report
