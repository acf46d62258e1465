package client

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// acceptEncoding is what the client asks for: the body as it is, so that
// each event is timed as it arrives. The transport's own gzip handling is
// off (DisableCompression), since a request without Accept-Encoding
// accepts any encoding.
const acceptEncoding = "identity"

// decodedBody returns body decoded as resp's Content-Encoding says: as it
// is for none (or identity), through gzip for gzip or x-gzip, which some
// servers send even to a client that asked for identity. Any other
// encoding is an error naming it; so is a gzip body that does not decode,
// once read.
func decodedBody(resp *http.Response, body io.Reader) (io.Reader, error) {
	enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	switch enc {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		return &gzipBody{in: body}, nil
	}
	return nil, fmt.Errorf("response body has Content-Encoding %q, which surge does not decode (it asks for %q; gzip is decoded)", enc, acceptEncoding)
}

// gzipBody decodes a gzip body, starting at its first read, so that the
// wait for the gzip header is timed as the body's first byte.
type gzipBody struct {
	in io.Reader
	z  *gzip.Reader
}

// Read implements io.Reader; its errors other than io.EOF say the body was
// gzip-encoded.
func (g *gzipBody) Read(p []byte) (int, error) {
	if g.z == nil {
		z, err := gzip.NewReader(g.in)
		if err != nil {
			return 0, fmt.Errorf("decoding the gzip-encoded response body: %w", err)
		}
		g.z = z
	}
	n, err := g.z.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("decoding the gzip-encoded response body: %w", err)
	}
	return n, err
}
