package fit

// Group is the rows of a trace that share one key: a client, a model or a
// log type.
type Group struct {
	Key   string
	Index []int // row indices, ascending
}

// Groups splits rows by key, so that each client, model or log type of a
// trace can be fitted (and emitted as a client) of its own. Groups come in
// the order their keys first appear. A trace without such a column is one
// group: pass a slice of equal keys.
func Groups(keys []string) []Group {
	var out []Group
	at := map[string]int{}
	for i, k := range keys {
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, Group{Key: k})
		}
		out[j].Index = append(out[j].Index, i)
	}
	return out
}

// Pick returns xs at the given indices, for example one Group's arrival
// times or lengths.
func Pick(xs []float64, index []int) []float64 {
	out := make([]float64, len(index))
	for i, j := range index {
		out[i] = xs[j]
	}
	return out
}
