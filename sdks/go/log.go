package reprise

import (
	"log"
	"os"
	"sync"
	"time"
)

// Logger receives the SDK's warnings, one line each. A *log.Logger satisfies it.
type Logger interface {
	Printf(format string, v ...any)
}

func defaultLogger() Logger { return log.New(os.Stderr, "[reprise] ", 0) }

// warner prints warnings once per key, or at most once per interval per key for repeating ones (delivery
// failures while the server is down), and never lets a broken logger reach the application.
type warner struct {
	logger   Logger
	interval time.Duration

	mu   sync.Mutex
	once map[string]bool
	last map[string]time.Time
}

func newWarner(logger Logger) *warner {
	return &warner{logger: logger, interval: 30 * time.Second, once: map[string]bool{}, last: map[string]time.Time{}}
}

// warnOnce prints message the first time key is seen by this client.
func (w *warner) warnOnce(key, message string) {
	w.mu.Lock()
	seen := w.once[key]
	w.once[key] = true
	w.mu.Unlock()
	if !seen {
		w.print(message)
	}
}

// warnThrottled prints message unless the same key was printed within the interval.
func (w *warner) warnThrottled(key, message string) {
	now := time.Now()
	w.mu.Lock()
	last, ok := w.last[key]
	if ok && now.Sub(last) < w.interval {
		w.mu.Unlock()
		return
	}
	w.last[key] = now
	w.mu.Unlock()
	w.print(message)
}

func (w *warner) print(message string) {
	defer func() { _ = recover() }()
	w.logger.Printf("%s", message)
}
