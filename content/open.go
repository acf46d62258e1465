package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// builtinNames lists the encodings Builtin knows, in the order error
// messages give them.
func builtinNames() []string { return []string{"o200k_base", "cl100k_base"} }

// IsBuiltin reports whether name is a built-in encoding rather than a path.
func IsBuiltin(name string) bool { return slices.Contains(builtinNames(), name) }

// Open returns the tokenizer nameOrPath names: a built-in encoding
// (o200k_base, cl100k_base), a Hugging Face tokenizer.json file, or a
// directory holding one (a model repository). A built-in name wins over a
// file of the same name.
func Open(nameOrPath string) (Tokenizer, error) {
	if IsBuiltin(nameOrPath) {
		return Builtin(nameOrPath)
	}
	path := nameOrPath
	info, err := os.Stat(path)
	if err == nil && info.IsDir() {
		path = filepath.Join(path, "tokenizer.json")
		_, err = os.Stat(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("tokenizer %q: not a built-in (%s) and no file at that path",
			nameOrPath, strings.Join(builtinNames(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("tokenizer %q: %w", nameOrPath, err)
	}
	return LoadHF(path)
}
