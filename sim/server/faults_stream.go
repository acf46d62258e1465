package server

import (
	"fmt"
	"net/http"
	"time"
)

// streamFaults applies a plan's faults inside one stream as it is written.
type streamFaults struct {
	s         *Server
	w         http.ResponseWriter
	r         *http.Request
	rc        *http.ResponseController
	rp        *reply
	restarted <-chan struct{}
	pending   []streamFault // by at, ascending
}

// before applies, in order, the pending faults due once sent tokens have
// been appended to buf (a stall or reset first writes buf out, so the
// client has those chunks). It returns the buffer to go on with, and false
// if the client went away (the caller aborts the request). A reset-stream
// fault and a restart during a stall do not return: they abort the
// request and the connection.
func (sf *streamFaults) before(sent int, buf []byte) ([]byte, bool) {
	for len(sf.pending) > 0 && sf.pending[0].at <= sent {
		f := sf.pending[0]
		sf.pending = sf.pending[1:]
		detail := fmt.Sprintf("id=%d after=%d", sf.rp.st.id, sent)
		var ok bool
		switch f.kind {
		case FaultBrokenSSE:
			sf.s.faults.record("broken_sse", detail)
			buf = sf.rp.appendBroken(buf, sent)
			continue
		case FaultStallStream:
			sf.s.faults.record("stall_stream", fmt.Sprintf("%s stall=%v", detail, f.stall))
			if buf, ok = sf.flush(sent, buf); ok {
				ok = sf.sleep(f.stall)
			}
		case FaultResetStream:
			sf.s.faults.record("reset_stream", detail)
			if _, ok = sf.flush(sent, buf); ok {
				sf.s.abort(sf.rp.st.id)
				panic(http.ErrAbortHandler)
			}
		}
		if !ok {
			return buf, false
		}
	}
	return buf, true
}

// flush writes buf to the client now; sent tokens are in it or before it.
func (sf *streamFaults) flush(sent int, buf []byte) ([]byte, bool) {
	if len(buf) == 0 {
		return buf, true
	}
	if _, err := sf.w.Write(buf); err != nil {
		return buf[:0], false
	}
	sf.rc.Flush()
	if sent > 0 && sf.rp.firstWrite.IsZero() {
		sf.rp.firstWrite = time.Now()
	}
	return buf[:0], true
}

// sleep pauses for d; it reports false if the client went away, and a
// restart meanwhile cuts the connection (the loop has dropped the request).
func (sf *streamFaults) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-sf.r.Context().Done():
		return false
	case <-sf.restarted:
		panic(http.ErrAbortHandler)
	}
}

// appendBroken appends a malformed event: the first half of the data line
// of token i (or of a token past the end), its JSON cut off, then the
// blank line that ends an event.
func (rp *reply) appendBroken(dst []byte, i int) []byte {
	ev := rp.appendToken(nil, i)
	return append(append(dst, ev[:len(ev)/2]...), "\n\n"...)
}

// cutOnRestart aborts the handler, closing the connection without an end
// to the response, when a restart dropped the request.
func cutOnRestart(p progress) {
	if p.failure == errRestart {
		panic(http.ErrAbortHandler)
	}
}
