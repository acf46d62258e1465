package cli

import (
	"io/fs"
	"os"
	"path/filepath"

	"surge/content"
)

// openTokenizer opens the tokenizer a flag or spec names: a built-in
// encoding, or a tokenizer.json file or model directory at an operating
// system path, which the command line, not content, opens.
func openTokenizer(nameOrPath string) (content.Tokenizer, error) {
	return content.OpenFS(hostFS{}, filepath.ToSlash(nameOrPath))
}

// hostFS is the operating system's files by their slash-separated paths,
// relative to the working directory or absolute, ".." included.
type hostFS struct{}

// Open opens the file at name.
func (hostFS) Open(name string) (fs.File, error) { return os.Open(filepath.FromSlash(name)) }

// Stat returns the file information of name.
func (hostFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(filepath.FromSlash(name)) }
