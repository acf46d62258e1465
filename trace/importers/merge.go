package importers

import (
	"io"

	"surge/trace"
)

// merged is a Source of the sessions of several sources in start order.
type merged struct {
	srcs    []Source
	head    []*trace.Session // the next session of each source, nil when it ended
	started bool
}

// Merge returns a Source of the sessions of srcs, each in start order, in
// start order: a k-way merge holding one session per source, ties going
// to the earlier source.
func Merge(srcs ...Source) Source {
	return &merged{srcs: srcs, head: make([]*trace.Session, len(srcs))}
}

// Next returns the earliest next session of the sources, or io.EOF when
// all have ended.
func (m *merged) Next() (*trace.Session, error) {
	if !m.started {
		m.started = true
		for i := range m.srcs {
			if err := m.fill(i); err != nil {
				return nil, err
			}
		}
	}
	best := -1
	for i, s := range m.head {
		if s != nil && (best < 0 || s.AtUS < m.head[best].AtUS) {
			best = i
		}
	}
	if best < 0 {
		return nil, io.EOF
	}
	s := m.head[best]
	if err := m.fill(best); err != nil {
		return nil, err
	}
	return s, nil
}

// fill reads source i's next session into its head.
func (m *merged) fill(i int) error {
	s, err := m.srcs[i].Next()
	if err == io.EOF {
		m.head[i] = nil
		return nil
	}
	m.head[i] = s
	return err
}
