package spec

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"surge/openai"
)

// Dataset is a client's prompts read from a file (its dataset key), in
// place of synthesised ones.
type Dataset struct {
	// Path is the file's path as written; callers read it relative to the
	// spec's directory.
	Path string
	// Format is sharegpt, jsonl, csv or parquet; "" detects it from the
	// file's extension or first bytes.
	Format string
	// Field names the JSON field or column holding each prompt; "" takes
	// the format's default.
	Field string
	// Order is OrderSequential (file order) or OrderShuffle (a permutation
	// drawn from the spec's seed).
	Order string
	// MinInput and MaxInput keep only the prompts whose own token count
	// is within them; 0 is no bound.
	MinInput, MaxInput int
	// Fit is how a prompt meets the client's input law: FitKeep sends it
	// as it is; FitTrim cuts longer prompts to the sampled length, FitPad
	// pads shorter ones, FitExact does both. A prompt that cannot be made
	// exact is passed over and counted.
	Fit string
	// Replies takes each request's output length from the reply the file
	// records after the prompt (output: dataset), as vllm bench does.
	Replies bool
}

// The orders of a dataset.
const (
	OrderSequential = "sequential"
	OrderShuffle    = "shuffle"
)

// The fits of a dataset's prompts to the input law.
const (
	FitKeep  = "keep"
	FitTrim  = "trim"
	FitPad   = "pad"
	FitExact = "exact"
)

// datasetKeys are the keys of a client's dataset block.
var datasetKeys = []string{"path", "format", "field", "order", "min_input", "max_input", "fit"}

// datasetFormats are the formats a dataset may name (dataset.Formats).
var datasetFormats = []string{"sharegpt", "jsonl", "csv", "parquet"}

// dataset reads a client's dataset: a path, or a mapping with one.
func (d *decoder) dataset(n ast.Node, path string) *Dataset {
	ds := &Dataset{Order: OrderSequential, Fit: FitKeep}
	if v := d.value(n, path); v != nil {
		if _, isMap := v.(*ast.MappingNode); !isMap {
			if p, ok := d.str(n, path); ok {
				ds.Path = p
				d.checkPath(v, path, p)
			}
			return ds
		}
	}
	o, ok := d.object(n, path)
	if !ok {
		return nil
	}
	d.known(o, datasetKeys, "dataset")
	if n, p, ok := o.get("path"); ok {
		if ds.Path, ok = d.str(n, p); ok {
			d.checkPath(d.value(n, p), p, ds.Path)
		}
	} else {
		d.errorf(o.node, path, "missing key path (the dataset file, relative to the spec)")
	}
	field(o, "format", d.choice("dataset format", datasetFormats), &ds.Format)
	field(o, "field", d.str, &ds.Field)
	d.check(o, "field", ds.Format == "sharegpt" && ds.Field != "", "a sharegpt file has its prompts in conversations: remove field")
	field(o, "order", d.choice("order", []string{OrderSequential, OrderShuffle}), &ds.Order)
	field(o, "fit", d.choice("fit", []string{FitKeep, FitTrim, FitPad, FitExact}), &ds.Fit)
	if field(o, "min_input", d.count, &ds.MinInput) {
		d.check(o, "min_input", ds.MinInput > MaxLength, "min_input must be at most %d tokens", MaxLength)
	}
	if field(o, "max_input", d.count, &ds.MaxInput) {
		d.check(o, "max_input", ds.MaxInput < 1, "max_input must be at least 1 token")
		d.check(o, "max_input", ds.MinInput > ds.MaxInput, "max_input %d is below min_input %d", ds.MaxInput, ds.MinInput)
	}
	return ds
}

// checkPath reports an empty dataset path.
func (d *decoder) checkPath(at ast.Node, path, p string) {
	if strings.TrimSpace(p) == "" {
		d.errorf(at, path, "the dataset path is empty")
	}
}

// datasetLengths reads the input and output of a client with a dataset:
// input is the law prompts are fitted to, which fit keep has none of;
// output is a law or dataset, the recorded replies' lengths.
func (d *decoder) datasetLengths(o *object, c *Client) {
	ds := c.Dataset
	if ds.Fit == FitKeep {
		d.check(o, "input", o.has("input"), "fit keep sends each prompt of the dataset as it is: remove input, or give the dataset fit trim, pad or exact to shape prompts to it")
	} else {
		c.Input = d.lengths(o, "input", "the length prompts are fitted to, like input: 1k")
	}
	if n, p, ok := o.get("output"); ok {
		if v, isScalar := d.value(n, p).(ast.ScalarNode); isScalar && scalarText(v) == "dataset" {
			ds.Replies = true
			return
		}
	}
	c.Output = d.lengths(o, "output", "the output length in tokens, like output: 256, or output: dataset for the lengths of the replies the file records")
}

// checkDataset checks what a client with a dataset cannot also have.
func (d *decoder) checkDataset(o *object, c *Client) {
	d.check(o, "dataset", c.API == "embeddings", "api embeddings embeds synthesised texts: remove dataset")
	d.check(o, "dataset", openai.Scores(c.API), "api %s scores synthesised documents: remove dataset", c.API)
	chat := c.Session.Kind == KindChat
	d.check(o, "dataset", c.Session.Kind != KindSingle && !chat, "a dataset's prompts are single requests or chat sessions: make session single or chat")
	d.check(o, "dataset", chat && c.Dataset.Fit != FitKeep, "chat sessions send a dataset's conversations as they are: remove fit (or make it keep)")
	d.check(o, "correlation", o.has("correlation"), "a dataset's prompts have their own lengths: remove correlation")
}

// writeDataset renders a client's dataset block for Canonical.
func writeDataset(b *bytes.Buffer, ds *Dataset) {
	fmt.Fprintf(b, "    dataset: {path: %s, format: %s, field: %s, order: %s, min_input: %d, max_input: %d, fit: %s}\n",
		strconv.Quote(ds.Path), strconv.Quote(ds.Format), strconv.Quote(ds.Field), ds.Order, ds.MinInput, ds.MaxInput, ds.Fit)
	if ds.Replies {
		b.WriteString("    output: dataset\n")
	}
}
