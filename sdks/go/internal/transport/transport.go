package transport

import (
	"context"
	"errors"
	"net/http"
	"sync"
)

var errPanicked = errors.New("export panicked")

// Transport is one client's delivery pipeline: a processor feeding an exporter. It starts lazily on the first
// carrier (docs/sdk-transport.md, rule 10) and is safe for concurrent use.
type Transport struct {
	settings Settings
	// Acks records acknowledgments of watched traces for the replay barrier.
	Acks AckTracker

	mu        sync.Mutex
	processor *processor
	exporter  *exporter
	closed    bool
}

// New returns a transport that has not started anything yet.
func New(settings Settings) *Transport {
	return &Transport{settings: settings}
}

// Submit queues one carrier. It returns false when the transport is closed.
func (t *Transport) Submit(c *Carrier) bool {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		t.settings.WarnOnce("transport-closed", "A span was recorded after Close; it was not sent.")
		return false
	}
	if t.processor == nil {
		t.exporter = newExporter(t.settings, &t.Acks)
		t.processor = newProcessor(t.settings.MaxQueueSize, t.settings.MaxExportBatchSize, t.settings.ScheduledDelay, t.exporter.export)
	}
	p := t.processor
	t.mu.Unlock()
	p.enqueue(c)
	return true
}

// Closed reports whether Close was called.
func (t *Transport) Closed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// Dropped is the number of carriers dropped because the queue was full.
func (t *Transport) Dropped() uint64 {
	if p := t.started(); p != nil {
		return p.droppedCount()
	}
	return 0
}

// QueueLength is the number of carriers waiting.
func (t *Transport) QueueLength() int {
	if p := t.started(); p != nil {
		return p.queueLength()
	}
	return 0
}

// Flush exports everything queued. It returns false on exporter failure or when ctx ends first.
func (t *Transport) Flush(ctx context.Context) bool {
	p := t.started()
	if p == nil {
		return true
	}
	return p.flush(ctx)
}

// Close flushes, then shuts the processor down for good; later carriers are refused.
func (t *Transport) Close(ctx context.Context) bool {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return true
	}
	t.closed = true
	p, e := t.processor, t.exporter
	t.mu.Unlock()
	if p == nil {
		return true
	}
	flushed := p.flush(ctx)
	p.shutdown(ctx)
	if tr, ok := e.client.Transport.(*http.Transport); ok && t.settings.HTTPClient == nil {
		tr.CloseIdleConnections()
	}
	return flushed
}

func (t *Transport) started() *processor {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.processor
}
