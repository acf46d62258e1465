package spec

import (
	"math"

	"github.com/goccy/go-yaml/ast"

	"surge/content"
)

// Duplicates makes a share of a client's requests near-duplicates of its
// earlier ones: each repeats a request the client sent before, whole (its
// lengths, style and sampling), with Tokens tokens of the prompt changed
// at Edit, so that caches meet the copies in a known way (content.Where).
type Duplicates struct {
	Share  float64       // of the client's requests, in [0, 1]
	Edit   content.Where // where the copy differs; none for an exact copy
	Tokens int           // how many tokens (at least) the edit changes
	Within int           // the copied request is one of the client's last Within
}

// Bounds and defaults of a client's duplicates.
const (
	DefaultDuplicateTokens = 8
	DefaultDuplicateWithin = 100
	maxDuplicateTokens     = 4096
	maxDuplicateWithin     = 1_000_000
)

// duplicatesKeys are the keys of a client's duplicates.
var duplicatesKeys = []string{"share", "edit", "tokens", "within"}

// duplicates reads a client's duplicates: a share, or a mapping with
// share (required), edit, tokens and within.
func (d *decoder) duplicates(n ast.Node, path string) *Duplicates {
	dup := &Duplicates{Edit: content.WhereEnd, Tokens: DefaultDuplicateTokens, Within: DefaultDuplicateWithin}
	o, ok := d.shareOrObject(n, path, &dup.Share)
	if !ok {
		return dup
	}
	d.known(o, duplicatesKeys, "duplicates")
	requireField(d, o, "share", "the share of requests that repeat an earlier one, like share: 10%", d.share, &dup.Share)
	wheres := make([]string, 0, 4)
	for _, w := range content.Wheres() {
		wheres = append(wheres, string(w))
	}
	var edit string
	if field(o, "edit", d.choice("edit", wheres), &edit) {
		dup.Edit = content.Where(edit)
	}
	var x float64
	if field(o, "tokens", d.number, &x) {
		d.check(o, "tokens", !(x >= 1 && x <= maxDuplicateTokens && x == math.Trunc(x)), "tokens must be a whole number from 1 to %d, got %g", maxDuplicateTokens, x)
		dup.Tokens = int(x)
	}
	if field(o, "within", d.number, &x) {
		d.check(o, "within", !(x >= 1 && x <= maxDuplicateWithin && x == math.Trunc(x)), "within must be a whole number of requests from 1 to %d, got %g", maxDuplicateWithin, x)
		dup.Within = int(x)
	}
	return dup
}
