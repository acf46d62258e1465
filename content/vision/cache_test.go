package vision

import (
	"sync"
	"testing"
)

// TestCacheBound checks the cache keeps no more bytes than its limit
// (beyond the one image just made), and gives an evicted image back the
// same when asked again.
func TestCacheBound(t *testing.T) {
	t.Parallel()
	first, err := NewCache(1, 1).Get(Key{W: 64, H: 64, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	limit := 3 * len(first.Data)
	c := NewCache(limit, 2)
	for seed := range uint64(10) {
		if _, err := c.Get(Key{W: 64, H: 64, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		if c.Bytes() > limit+len(first.Data) {
			t.Fatalf("after seed %d: %d bytes, limit %d", seed, c.Bytes(), limit)
		}
	}
	again, _ := c.Get(Key{W: 64, H: 64, Seed: 1})
	if again != first {
		t.Error("seed 1 encoded again is another image")
	}
}

// TestCacheConcurrent checks many asking for a few keys at once all get
// each key's one image.
func TestCacheConcurrent(t *testing.T) {
	t.Parallel()
	c := NewCache(0, 2)
	want := map[uint64]string{}
	for seed := range uint64(3) {
		im, _ := Encode(32, 32, seed, JPEG)
		want[seed] = string(im)
	}
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			k := Key{W: 32, H: 32, Seed: uint64(i % 3), Format: JPEG}
			im, err := c.Get(k)
			if err != nil || im.MediaType != "image/jpeg" || im.DataURL()[:23] != "data:image/jpeg;base64," {
				t.Errorf("Get(%v) = %v, %v", k, im.MediaType, err)
			}
		})
	}
	wg.Wait()
	if c.lru.Len() != 3 {
		t.Errorf("%d entries, want 3", c.lru.Len())
	}
}

func TestCacheError(t *testing.T) {
	t.Parallel()
	c := NewCache(0, 1)
	if _, err := c.Get(Key{W: 1, H: 1}); err == nil {
		t.Fatal("a 1×1 image was made")
	}
	if c.lru.Len() != 0 || c.Bytes() != 0 {
		t.Error("a failed image stayed in the cache")
	}
}
