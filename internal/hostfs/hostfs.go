// Package hostfs is the operating system's files as a command line names
// them: an fs.FS by the paths the user typed, "-" being standard input,
// and files created whole or not at all. Only the command line uses it;
// the libraries take the fs.FS, reader or writer it gives.
package hostfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// FS is the operating system's files by the slash-separated paths the
// user typed, relative to the working directory or absolute, ".."
// included, which fs.ValidPath would refuse: errors and client names then
// show each path as it was typed. "-" is Stdin, read once.
type FS struct{ Stdin io.Reader }

// Open opens the file at name, or standard input for -.
func (h FS) Open(name string) (fs.File, error) {
	if name != "-" {
		return os.Open(filepath.FromSlash(name))
	}
	if h.Stdin == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("no standard input here")}
	}
	return stdinFile{h.Stdin}, nil
}

// Stat returns the file information of name.
func (FS) Stat(name string) (fs.FileInfo, error) { return os.Stat(filepath.FromSlash(name)) }

// stdinFile is standard input as an fs.File.
type stdinFile struct{ io.Reader }

func (stdinFile) Stat() (fs.FileInfo, error) { return stdinInfo{}, nil }
func (stdinFile) Close() error               { return nil }

// stdinInfo describes standard input: a stream of unknown size.
type stdinInfo struct{}

func (stdinInfo) Name() string       { return "-" }
func (stdinInfo) Size() int64        { return 0 }
func (stdinInfo) Mode() fs.FileMode  { return fs.ModeNamedPipe }
func (stdinInfo) ModTime() time.Time { return time.Time{} }
func (stdinInfo) IsDir() bool        { return false }
func (stdinInfo) Sys() any           { return nil }
