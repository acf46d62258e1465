package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"surge/internal/redact"
	"surge/trace"
)

// Bounds on a client's request options: they go into every request and
// into the trace's header.
const (
	maxHeaders        = 64
	maxHeaderValue    = 4 << 10
	maxExtraBodyBytes = 64 << 10
	maxExtraDepth     = 32
)

// headerName is the form of a header's name (RFC 9110's token).
var headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// structural are the members of a request that say what is sent, which
// extra_body may not replace (the others, such as max_tokens, it may).
var structural = []string{"model", "messages", "prompt", "input", "system", "stream"}

// headers reads a client's headers: names and string values, whose
// values may hold trace's placeholders ({client}, {session}). A header
// that carries credentials is refused: they come from the environment,
// never from a file that is copied into traces and bundles.
func (d *decoder) headers(n ast.Node, path string) map[string]string {
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	if len(o.keys) > maxHeaders {
		d.errorf(o.node, path, "%d headers: at most %d", len(o.keys), maxHeaders)
		return nil
	}
	out := map[string]string{}
	for _, name := range o.keys {
		p := join(path, name)
		v, ok := d.str(o.vals[name], p)
		switch {
		case !ok:
		case !headerName.MatchString(name):
			d.errorf(o.kpos[name], p, "%s is not a header name (letters, digits and !#$%%&'*+.^_`|~-)", show(name))
		case redact.CredentialHeader(name) && !idsOnly(v):
			d.errorf(o.kpos[name], p, "%s carries credentials, which a spec must not hold: give the key with --api-key-env, or the header with --header (a header of such a name may hold only %s and %s)",
				name, trace.ClientPlaceholder, trace.SessionPlaceholder)
		case len(v) > maxHeaderValue:
			d.errorf(d.value(o.vals[name], p), p, "a value of %d bytes: at most %d", len(v), maxHeaderValue)
		default:
			if err := trace.CheckHeaderValue(v); err != nil {
				d.errorf(d.value(o.vals[name], p), p, "%v", err)
				continue
			}
			out[name] = v
		}
	}
	return out
}

// idsOnly reports whether a header value holds nothing but surge's own
// ids: placeholders, joined by - _ . / or :, so it is no secret whatever
// its header's name (x-session-id: "{session}").
func idsOnly(v string) bool {
	rest := strings.ReplaceAll(strings.ReplaceAll(v, trace.SessionPlaceholder, ""), trace.ClientPlaceholder, "")
	return rest != v && strings.Trim(rest, "-_./:") == ""
}

// extraBody reads a client's extra_body: a mapping, any YAML values
// under it, as the JSON object merged into every request.
func (d *decoder) extraBody(n ast.Node, path string) json.RawMessage {
	v, ok := d.jsonValue(n, path, 0)
	if !ok {
		return nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		d.errorf(d.value(n, path), path, "expected a mapping of members to add to every request, got %s", describe(d.value(n, path)))
		return nil
	}
	for _, k := range structural {
		if _, ok := m[k]; ok {
			d.errorf(d.value(n, path), join(path, k), "surge sends %s from the workload; extra_body cannot replace it", k)
			return nil
		}
	}
	b, err := json.Marshal(m)
	switch {
	case err != nil:
		d.errorf(d.value(n, path), path, "%v", err)
		return nil
	case len(b) > maxExtraBodyBytes:
		d.errorf(d.value(n, path), path, "%d bytes of JSON: at most %d", len(b), maxExtraBodyBytes)
		return nil
	}
	return b
}

// jsonValue reads n as a JSON value: mappings (string keys), lists,
// strings, numbers, booleans and null.
func (d *decoder) jsonValue(n ast.Node, path string, depth int) (any, bool) {
	if depth > maxExtraDepth {
		d.errorf(n, path, "nested more than %d deep", maxExtraDepth)
		return nil, false
	}
	v := d.value(n, path)
	switch x := v.(type) {
	case *ast.MappingNode:
		o, ok := d.object(x, path)
		if !ok {
			return nil, false
		}
		m := map[string]any{}
		for _, k := range o.keys {
			val, ok := d.jsonValue(o.vals[k], join(path, k), depth+1)
			if !ok {
				return nil, false
			}
			m[k] = val
		}
		return m, true
	case *ast.SequenceNode:
		out := []any{}
		for i, item := range x.Values {
			val, ok := d.jsonValue(item, index(path, i), depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, val)
		}
		return out, true
	case *ast.NullNode:
		return nil, true
	case *ast.BoolNode:
		return x.Value, true
	case *ast.IntegerNode:
		if i, err := strconv.ParseInt(strings.ReplaceAll(x.GetToken().Value, "_", ""), 0, 64); err == nil {
			return i, true
		}
	case *ast.FloatNode:
		return x.Value, true
	case *ast.StringNode, *ast.LiteralNode:
		return scalarText(x), true
	case nil:
		return nil, false
	}
	d.errorf(v, path, "expected a JSON value (a mapping, list, string, number, true, false or null), got %s", describe(v))
	return nil, false
}

// writeRequest renders a client's headers and extra_body, keys sorted.
func writeRequest(b *bytes.Buffer, c Client) {
	if len(c.Headers) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(c.Headers)) {
			parts = append(parts, strconv.Quote(k)+": "+strconv.Quote(c.Headers[k]))
		}
		fmt.Fprintf(b, "    headers: {%s}\n", strings.Join(parts, ", "))
	}
	if len(c.ExtraBody) > 0 {
		fmt.Fprintf(b, "    extra_body: %s\n", c.ExtraBody)
	}
}
