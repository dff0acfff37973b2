package transport

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// processor is the bounded batch processor: a queue of at most MaxQueueSize carriers that drops the OLDEST when
// full (docs/sdk-transport.md, "Limits"), exported in batches of MaxExportBatchSize every ScheduledDelay, or as soon as a full
// batch is queued. One goroutine exports, one batch at a time, so memory stays bounded while the server is down.
type processor struct {
	maxQueue  int
	batchSize int
	delay     time.Duration
	export    func(ctx context.Context, batch []*Carrier) error

	mu       sync.Mutex
	queue    []*Carrier
	dropped  uint64
	failures atomic.Uint64

	kick    chan struct{}
	flushes chan chan struct{}
	stop    chan struct{}
	done    chan struct{}
	ctx     context.Context
	cancel  context.CancelFunc
}

func newProcessor(maxQueue, batchSize int, delay time.Duration, export func(context.Context, []*Carrier) error) *processor {
	ctx, cancel := context.WithCancel(context.Background())
	p := &processor{
		maxQueue: maxQueue, batchSize: batchSize, delay: delay, export: export,
		kick: make(chan struct{}, 1), flushes: make(chan chan struct{}), stop: make(chan struct{}),
		done: make(chan struct{}), ctx: ctx, cancel: cancel,
	}
	go p.run()
	return p
}

// enqueue adds a carrier, dropping the oldest when the queue is full.
func (p *processor) enqueue(c *Carrier) {
	p.mu.Lock()
	if len(p.queue) >= p.maxQueue {
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.dropped++
	}
	p.queue = append(p.queue, c)
	full := len(p.queue) >= p.batchSize
	p.mu.Unlock()
	if full {
		select {
		case p.kick <- struct{}{}:
		default:
		}
	}
}

func (p *processor) queueLength() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

func (p *processor) droppedCount() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropped
}

// flush exports everything queued, and waits for an export already running. False on failure or when ctx ends.
func (p *processor) flush(ctx context.Context) bool {
	before := p.failures.Load()
	done := make(chan struct{})
	select {
	case p.flushes <- done:
	case <-p.done:
		return p.queueLength() == 0 && p.failures.Load() == before
	case <-ctx.Done():
		return false
	}
	select {
	case <-done:
		return p.failures.Load() == before
	case <-ctx.Done():
		return false
	}
}

// shutdown stops the worker after a final drain; an export still running when ctx ends is canceled.
func (p *processor) shutdown(ctx context.Context) {
	close(p.stop)
	select {
	case <-p.done:
	case <-ctx.Done():
		p.cancel()
	}
}

func (p *processor) run() {
	defer close(p.done)
	defer p.cancel()
	timer := time.NewTimer(p.delay)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			p.exportNext(true)
			timer.Reset(p.delay)
		case <-p.kick:
			for p.exportNext(false) {
			}
		case done := <-p.flushes:
			p.drain()
			close(done)
		case <-p.stop:
			p.drain()
			return
		}
	}
}

// drain exports until the queue is empty.
func (p *processor) drain() {
	for p.exportNext(true) {
	}
}

// exportNext exports one batch: any queued carriers when partial is true, else only a full batch. It reports
// whether a batch was exported.
func (p *processor) exportNext(partial bool) bool {
	p.mu.Lock()
	n := len(p.queue)
	if n == 0 || (!partial && n < p.batchSize) {
		p.mu.Unlock()
		return false
	}
	if n > p.batchSize {
		n = p.batchSize
	}
	batch := make([]*Carrier, n)
	copy(batch, p.queue[:n])
	for i := 0; i < n; i++ {
		p.queue[i] = nil
	}
	p.queue = p.queue[n:]
	p.mu.Unlock()
	if err := p.safeExport(batch); err != nil {
		p.failures.Add(1)
	}
	return true
}

func (p *processor) safeExport(batch []*Carrier) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errPanicked
		}
	}()
	return p.export(p.ctx, batch)
}
