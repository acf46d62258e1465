package vision

import (
	"container/list"
	"encoding/base64"
	"sync"
)

// Image is one synthetic image as a request carries it: its MIME type and
// its bytes in standard base64, so that a body appends it as it is.
type Image struct {
	MediaType string
	Data      string
}

// DataURL is the image as a data URL, "data:image/png;base64,…".
func (im Image) DataURL() string { return "data:" + im.MediaType + ";base64," + im.Data }

// Key names one synthetic image: its size, seed and format.
type Key struct {
	W, H   int
	Seed   uint64
	Format string
}

// DefaultCacheBytes is the base64 bytes a Cache keeps by default: 256 MiB,
// some 300 images of 4096×4096 px (about 0.8 MB each in base64) or
// thousands of small ones.
const DefaultCacheBytes = 256 << 20

// Cache keeps the encodings of the images most recently asked for, up
// to a bound on their bytes, so each is encoded once while it stays in;
// one asked for again after it left is encoded again, to the same bytes.
// It is safe for concurrent use, and encodes one key once however many
// ask for it at the same time.
type Cache struct {
	limit int
	sem   chan struct{} // bounds encodings at once, each holding a raw image

	mu    sync.Mutex
	bytes int
	lru   *list.List // of *entry, most recent first
	byKey map[Key]*list.Element
}

// entry is one cached image; ready is closed once img or err is set.
type entry struct {
	key   Key
	ready chan struct{}
	img   Image
	err   error
	// counted is set, under Cache.mu, once the bytes are in Cache.bytes.
	counted bool
}

// NewCache returns a cache of at most limit bytes of base64 (0:
// DefaultCacheBytes), encoding at most workers images at once (0: 2),
// each of which holds up to 48 MB while it is made (a 4096×4096 JPEG).
func NewCache(limit, workers int) *Cache {
	if limit <= 0 {
		limit = DefaultCacheBytes
	}
	if workers <= 0 {
		workers = 2
	}
	return &Cache{limit: limit, sem: make(chan struct{}, workers), lru: list.New(), byKey: map[Key]*list.Element{}}
}

// Get returns the image of k, encoding it if it is not cached.
func (c *Cache) Get(k Key) (Image, error) {
	c.mu.Lock()
	if el, ok := c.byKey[k]; ok {
		c.lru.MoveToFront(el)
		e := el.Value.(*entry)
		c.mu.Unlock()
		<-e.ready
		return e.img, e.err
	}
	e := &entry{key: k, ready: make(chan struct{})}
	c.byKey[k] = c.lru.PushFront(e)
	c.mu.Unlock()

	c.sem <- struct{}{}
	raw, err := Encode(k.W, k.H, k.Seed, k.Format)
	<-c.sem
	e.err = err
	if err == nil {
		e.img = Image{MediaType: MediaType(k.Format), Data: base64.StdEncoding.EncodeToString(raw)}
	}
	close(e.ready)
	c.settle(e)
	return e.img, e.err
}

// settle counts a finished entry's bytes, drops it if it failed, and
// evicts the least recent finished entries past the limit.
func (c *Cache) settle(e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[e.key]
	if !ok || el.Value != e {
		return
	}
	if e.err != nil {
		c.lru.Remove(el)
		delete(c.byKey, e.key)
		return
	}
	c.bytes += len(e.img.Data)
	e.counted = true
	for el := c.lru.Back(); el != nil && c.bytes > c.limit; {
		prev := el.Prev()
		if old := el.Value.(*entry); old != e && old.counted {
			c.bytes -= len(old.img.Data)
			c.lru.Remove(el)
			delete(c.byKey, old.key)
		}
		el = prev
	}
}

// Bytes is the base64 bytes the cache holds.
func (c *Cache) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
