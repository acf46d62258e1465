package sim

// seq is the engine's state of one request.
//
// Token accounting follows vLLM: the sequence holds total() = PromptLen +
// generated tokens, of which computed have their KV in the cache. A step
// computes some of the rest; when computed reaches total(), a new token is
// sampled, so a decoding sequence always has exactly one token to compute.
type seq struct {
	req       Request
	order     uint64 // Add order
	computed  int
	generated int
	blocks    []int32 // KV blocks, ⌈computed/BlockSize⌉ of them between steps
	window    []int32 // the sliding-window layers' blocks (windowNeed)
	prev      []int32 // after a preemption, the full blocks it held, perhaps still cached for it
	admitted  bool    // scheduled at least once
	cached    int     // prompt tokens hit in the prefix cache at first admission
	heapIdx   int     // index in the waiting queue, noHeap when not waiting
	done      bool    // finished
}

// noHeap marks a sequence that is not waiting.
const noHeap = -1

func (s *seq) total() int { return s.req.PromptLen + s.generated }

// owner names the sequence as the owner of the blocks the KV cache keeps
// for it: its Add order plus one, never 0.
func (s *seq) owner() uint64 { return s.order + 1 }

// before orders waiting sequences: lower priority value first, then
// earlier arrival, then earlier Add.
func (s *seq) before(o *seq) bool {
	if s.req.Priority != o.req.Priority {
		return s.req.Priority < o.req.Priority
	}
	if s.req.Arrival != o.req.Arrival {
		return s.req.Arrival < o.req.Arrival
	}
	return s.order < o.order
}

// waitQueue is a binary min-heap of waiting sequences ordered by before.
// Each sequence knows its index, so Abort removes it in O(log n).
type waitQueue struct{ h []*seq }

func (q *waitQueue) Len() int { return len(q.h) }

func (q *waitQueue) peek() *seq { return q.h[0] }

func (q *waitQueue) push(s *seq) {
	s.heapIdx = len(q.h)
	q.h = append(q.h, s)
	q.up(s.heapIdx)
}

func (q *waitQueue) pop() *seq {
	s := q.h[0]
	q.remove(s)
	return s
}

func (q *waitQueue) remove(s *seq) {
	i, last := s.heapIdx, len(q.h)-1
	q.swap(i, last)
	q.h[last] = nil
	q.h = q.h[:last]
	s.heapIdx = noHeap
	if i < last {
		q.down(i)
		q.up(i)
	}
}

func (q *waitQueue) swap(i, j int) {
	q.h[i], q.h[j] = q.h[j], q.h[i]
	q.h[i].heapIdx, q.h[j].heapIdx = i, j
}

func (q *waitQueue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].before(q.h[p]) {
			return
		}
		q.swap(i, p)
		i = p
	}
}

func (q *waitQueue) down(i int) {
	for {
		m, l, r := i, 2*i+1, 2*i+2
		if l < len(q.h) && q.h[l].before(q.h[m]) {
			m = l
		}
		if r < len(q.h) && q.h[r].before(q.h[m]) {
			m = r
		}
		if m == i {
			return
		}
		q.swap(i, m)
		i = m
	}
}
