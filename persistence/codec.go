package persistence

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// decodeChunk is how many entries one decoding job takes.
const decodeChunk = 256

// encodeMessages renders each message as its stored JSON (pi's shape). The
// strings bind as TEXT, so SQLite's JSON functions can read the column.
func encodeMessages(msgs []agent.Message) ([]string, error) {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		b, err := m.MarshalJSON() // not json.Marshal, which would scan and copy it again
		if err != nil {
			return nil, fmt.Errorf("encode message %d: %w", i, err)
		}
		out[i] = string(b)
	}
	return out, nil
}

// decoder parses stored messages on every CPU while the caller is still
// reading rows, so that loading a long transcript costs little more than the
// slower of the two. Use: newDecoder, add each entry in order, then finish
// exactly once (also after an error, to stop the workers).
type decoder struct {
	work   chan *chunk
	wg     sync.WaitGroup
	chunks []*chunk
	cur    *chunk
	n      int
}

// chunk is a run of consecutive entries and, once decoded, their messages.
type chunk struct {
	first int // index of raw[0] in the transcript
	raw   [][]byte
	msgs  []agent.Message
	err   error
}

func newDecoder() *decoder {
	workers := runtime.GOMAXPROCS(0)
	d := &decoder{work: make(chan *chunk, workers), cur: &chunk{}}
	for range workers {
		d.wg.Go(func() {
			for c := range d.work {
				c.decode()
			}
		})
	}
	return d
}

// add queues one entry's JSON; raw must not be modified afterwards.
func (d *decoder) add(raw []byte) {
	d.cur.raw = append(d.cur.raw, raw)
	d.n++
	if len(d.cur.raw) == decodeChunk {
		d.flush()
	}
}

func (d *decoder) flush() {
	if len(d.cur.raw) == 0 {
		return
	}
	d.chunks = append(d.chunks, d.cur)
	d.work <- d.cur
	d.cur = &chunk{first: d.n}
}

// finish waits for the workers and returns the messages in order.
func (d *decoder) finish() ([]agent.Message, error) {
	d.flush()
	close(d.work)
	d.wg.Wait()
	if d.n == 0 {
		return nil, nil
	}
	msgs := make([]agent.Message, 0, d.n)
	for _, c := range d.chunks {
		if c.err != nil {
			return nil, c.err
		}
		msgs = append(msgs, c.msgs...)
		c.msgs = nil
	}
	return msgs, nil
}

// decode parses the chunk's entries.
func (c *chunk) decode() {
	c.msgs = make([]agent.Message, len(c.raw))
	for i, raw := range c.raw {
		// Calling the method directly skips json.Unmarshal's own validation
		// and scanning pass; UnmarshalJSON validates the input itself.
		if err := c.msgs[i].UnmarshalJSON(raw); err != nil {
			c.err = fmt.Errorf("entry %d: %w", c.first+i+1, err)
			return
		}
	}
	c.raw = nil // decoded: a long transcript's JSON goes while the rest is read
}
