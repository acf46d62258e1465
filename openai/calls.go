package openai

// Call is one tool call of a reply as a later turn sends it back: the
// server's id for it, the function's name and its JSON arguments as the
// server wrote them.
type Call struct {
	ID, Name, Arguments string
}

// Bounds on what Calls keeps of one reply: past MaxCalls calls the rest
// are dropped, past MaxCallBytes bytes of ids, names and arguments in all
// the rest is cut. They are far beyond what a model writes in one reply.
const (
	MaxCalls     = 128
	MaxCallBytes = 1 << 20
)

// Calls collects the tool calls of one reply from its stream's events,
// or its whole body, in the order they start (see DecodeCalls). Reused
// across replies after Reset, it allocates only to grow.
type Calls struct {
	calls []keptCall
	bytes int  // bytes of ids, names and arguments kept
	Cut   bool // some call or part of one was dropped past the bounds
}

// keptCall is a call being collected: key is where its stream places it
// (chat's tool_calls index, a Responses output_index, a Messages content
// block index), by which later parts find it.
type keptCall struct {
	key      int
	id, name []byte
	args     []byte
}

// keptBytes is the size of the buffers above which Reset lets them go.
const keptBytes = 64 << 10

// Reset empties c for the next reply, keeping its buffers unless they
// held more than 64 KiB.
func (c *Calls) Reset() {
	if c.bytes > keptBytes {
		c.calls = nil
	}
	c.calls, c.bytes, c.Cut = c.calls[:0], 0, false
}

// Len is the number of calls collected.
func (c *Calls) Len() int { return len(c.calls) }

// List returns the calls collected, nil when there are none.
func (c *Calls) List() []Call {
	if len(c.calls) == 0 {
		return nil
	}
	out := make([]Call, len(c.calls))
	for i, k := range c.calls {
		out[i] = Call{ID: string(k.id), Name: string(k.name), Arguments: string(k.args)}
	}
	return out
}

// find returns the call placed at key, nil when none is.
func (c *Calls) find(key int) *keptCall {
	for i := len(c.calls) - 1; i >= 0; i-- {
		if c.calls[i].key == key {
			return &c.calls[i]
		}
	}
	return nil
}

// start begins a call at key, nil past MaxCalls.
func (c *Calls) start(key int) *keptCall {
	if len(c.calls) == MaxCalls {
		c.Cut = true
		return nil
	}
	if len(c.calls) < cap(c.calls) {
		c.calls = c.calls[:len(c.calls)+1]
		k := &c.calls[len(c.calls)-1]
		k.key, k.id, k.name, k.args = key, k.id[:0], k.name[:0], k.args[:0]
		return k
	}
	c.calls = append(c.calls, keptCall{key: key})
	return &c.calls[len(c.calls)-1]
}

// add appends the decoded string str to dst within the bounds.
func (c *Calls) add(dst []byte, str rawString) []byte {
	if len(str.raw) == 0 {
		return dst
	}
	n := len(dst)
	dst = appendUnquoted(dst, str.raw, str.escaped)
	if room := MaxCallBytes - c.bytes; len(dst)-n > room {
		dst, c.Cut = dst[:n+max(room, 0)], true
	}
	c.bytes += len(dst) - n
	return dst
}

// addRaw appends raw JSON (a Messages tool_use block's whole input)
// within the bounds, all or nothing, so that what is kept stays JSON.
func (c *Calls) addRaw(dst, raw []byte) []byte {
	if len(raw) > MaxCallBytes-c.bytes {
		c.Cut = true
		return dst
	}
	c.bytes += len(raw)
	return append(dst, raw...)
}

// callPart is what one event or body element says of a call: its id, its
// name and (a piece of) its arguments.
type callPart struct {
	id, name, args rawString
	raw            []byte // arguments as raw JSON, for a whole tool_use input
	whole          bool   // args (or raw) are the whole arguments, replacing any pieces
}

// apply adds part to the call at key, starting it when it is new and the
// part names or identifies it (arguments of no call started are dropped:
// a Messages server tool's input, which is no call to answer).
func (c *Calls) apply(key int, p *callPart) {
	if c == nil {
		return
	}
	k := c.find(key)
	if k == nil {
		if len(p.id.raw) == 0 && len(p.name.raw) == 0 {
			return
		}
		if k = c.start(key); k == nil {
			return
		}
	}
	if len(k.id) == 0 {
		k.id = c.add(k.id, p.id)
	}
	if len(k.name) == 0 {
		k.name = c.add(k.name, p.name)
	}
	if p.whole && (len(p.args.raw) > 0 || len(p.raw) > 0) {
		c.bytes -= len(k.args)
		k.args = k.args[:0]
	}
	k.args = c.add(k.args, p.args)
	if len(p.raw) > 0 {
		k.args = c.addRaw(k.args, p.raw)
	}
}
