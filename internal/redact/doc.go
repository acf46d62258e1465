// Package redact removes credentials from the text surge prints, logs,
// records or renders: the user information of URLs (URL), and the
// secrets a run sends in every form a server may echo them in (Redactor):
// as given, JSON-escaped, and for basic authentication base64-encoded and
// decoded. Clip shortens a user's value before a message quotes it.
//
// It is the one redactor of the module: the client redacts its errors
// with it before they are recorded, and the harness, the bundle, the
// scraper and parity redact what they print and write.
package redact
