package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// builtinNames lists the encodings Builtin knows, in the order error
// messages give them.
func builtinNames() []string { return []string{"o200k_base", "cl100k_base"} }

// IsBuiltin reports whether name is a built-in encoding rather than a path.
func IsBuiltin(name string) bool { return slices.Contains(builtinNames(), name) }

// OpenFS returns the tokenizer nameOrPath names: a built-in encoding
// (o200k_base, cl100k_base), or else a Hugging Face tokenizer.json file in
// fsys, or a directory of fsys holding one (a model repository), read by
// ReadHF and named after nameOrPath. A built-in name wins over a file of
// the same name. nameOrPath is slash-separated, as fs.FS paths are; fsys
// may accept more than fs.ValidPath does (the command line's gives the
// operating system's paths as they are).
func OpenFS(fsys fs.FS, nameOrPath string) (Tokenizer, error) {
	if IsBuiltin(nameOrPath) {
		return Builtin(nameOrPath)
	}
	name := nameOrPath
	info, err := fs.Stat(fsys, name)
	if err == nil && info.IsDir() {
		name = path.Join(name, "tokenizer.json")
		_, err = fs.Stat(fsys, name)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("tokenizer %q: not a built-in (%s) and no file at that path",
			nameOrPath, strings.Join(builtinNames(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("tokenizer %q: %w", nameOrPath, err)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("loading tokenizer: %w", err)
	}
	defer f.Close()
	return ReadHF(f, name)
}

// Open is OpenFS over the operating system's files, for programs and
// tests; a library takes the fs.FS its caller gives it instead.
func Open(nameOrPath string) (Tokenizer, error) {
	return OpenFS(hostFS{}, filepath.ToSlash(nameOrPath))
}

// hostFS opens the operating system's files by their slash-separated
// paths, relative to the working directory or absolute, ".." included.
type hostFS struct{}

func (hostFS) Open(name string) (fs.File, error) { return os.Open(filepath.FromSlash(name)) }

func (hostFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(filepath.FromSlash(name)) }
