package dataset

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// parquetBatch is how many values readParquet reads at a time.
const parquetBatch = 256

// readParquet reads the string column opts.Field (default prompt; a
// nested one as a.b) of a Parquet file, a row an entry, a null or empty
// value skipped. Parquet needs random access, so f must be an
// io.ReaderAt (a file, not a stream); it is read page by page.
func readParquet(f fs.File, size int64, set *Set, opts Options) error {
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return errors.New("a parquet file is read by random access: give a file, not a stream")
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(ra, 0, size)); err != nil {
		return err
	}
	set.Hash = digest(h)
	pf, err := parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return fmt.Errorf("not a parquet file: %w", err)
	}
	field := cmp.Or(opts.Field, "prompt")
	col, err := stringColumn(pf.Schema(), field)
	if err != nil {
		return err
	}
	row := 0
	for _, rg := range pf.RowGroups() {
		pages := rg.ColumnChunks()[col].Pages()
		err := readPages(pages, &row, set, opts)
		pages.Close()
		if err != nil {
			return fmt.Errorf("row %d: %w", row+1, err)
		}
	}
	return nil
}

// stringColumn returns the index of the leaf column at field (dots
// separate the names of a nested one), which must hold one string a row.
func stringColumn(s *parquet.Schema, field string) (int, error) {
	leaf, ok := s.Lookup(strings.Split(field, ".")...)
	if !ok {
		var names []string
		for _, p := range s.Columns() {
			names = append(names, strings.Join(p, "."))
		}
		return 0, fmt.Errorf("no column %q among %s: name the prompt's with field", field, strings.Join(names, ", "))
	}
	switch {
	case leaf.MaxRepetitionLevel > 0:
		return 0, fmt.Errorf("column %q is a list: want one string a row", field)
	case leaf.Node.Type().Kind() != parquet.ByteArray:
		return 0, fmt.Errorf("column %q holds %s: want strings", field, leaf.Node.Type())
	}
	return leaf.ColumnIndex, nil
}

// readPages adds an entry for each value of a column chunk's pages,
// counting rows in *row.
func readPages(pages parquet.Pages, row *int, set *Set, opts Options) error {
	buf := make([]parquet.Value, parquetBatch)
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		err = readValues(p.Values(), buf, row, set, opts)
		parquet.Release(p)
		if err != nil {
			return err
		}
	}
}

// readValues adds an entry for each value of vr.
func readValues(vr parquet.ValueReader, buf []parquet.Value, row *int, set *Set, opts Options) error {
	for {
		n, err := vr.ReadValues(buf)
		for _, v := range buf[:n] {
			*row++
			e := Entry{Row: *row}
			if s := string(v.ByteArray()); !v.IsNull() && strings.TrimSpace(s) != "" {
				e.Turns = []Turn{{Prompt: s}}
			}
			if aerr := set.add(e, opts); aerr != nil {
				return aerr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
