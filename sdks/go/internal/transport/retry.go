package transport

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// retryableStatuses are retried (docs/sdk-transport.md, rule 8); 413 and other statuses are not.
var retryableStatuses = map[int]bool{408: true, 425: true, 429: true, 500: true, 502: true, 503: true, 504: true}

// attemptKind classifies one HTTP exchange.
type attemptKind int

const (
	attemptOK attemptKind = iota
	attemptRejected
	attemptRetryable
)

type attemptResult struct {
	kind       attemptKind
	status     int
	message    string
	retryAfter time.Duration // -1 when absent
	body       []byte
}

// deliveryResult is a request's outcome after retries.
type deliveryResult struct {
	delivered bool
	body      []byte
	status    int
	message   string
	attempts  int
}

// throttle holds back every request of one transport while a Retry-After is running (transport rule 8).
type throttle struct {
	mu    sync.Mutex
	until time.Time
}

func (t *throttle) hold(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if until := time.Now().Add(d); until.After(t.until) {
		t.until = until
	}
}

func (t *throttle) remaining() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	if d := time.Until(t.until); d > 0 {
		return d
	}
	return 0
}

type retryPolicy struct {
	maxAttempts    int
	backoffBase    time.Duration
	maxBackoff     time.Duration
	requestTimeout time.Duration
}

// sendWithRetry runs attempt until it succeeds, is rejected, or the export budget (deadline) cannot afford another
// wait. A Retry-After is honoured exactly through the shared throttle when it fits in half of the remaining budget
// (the other half is kept for the request); otherwise the request gives up. Without one, the delay is exponential
// (base·2^(n-1), capped) with jitter in [50%, 100%).
func sendWithRetry(ctx context.Context, deadline time.Time, policy retryPolicy, th *throttle,
	attempt func(ctx context.Context, timeout time.Duration) attemptResult) deliveryResult {
	last := attemptResult{kind: attemptRetryable, message: "no attempt made", retryAfter: -1}
	for n := 1; n <= policy.maxAttempts; n++ {
		if held := th.remaining(); held > 0 {
			if held > time.Until(deadline)/2 {
				return failed(last, n-1, fmt.Sprintf("throttled for %v, beyond the export budget", held))
			}
			if !sleepCtx(ctx, held) {
				return failed(last, n-1, "canceled")
			}
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return failed(last, n-1, "export budget exhausted")
		}
		timeout := policy.requestTimeout
		if remaining < timeout {
			timeout = remaining
		}
		last = attempt(ctx, timeout)
		if last.kind == attemptOK {
			return deliveryResult{delivered: true, body: last.body, status: last.status, attempts: n}
		}
		if last.kind == attemptRejected || n == policy.maxAttempts {
			return failed(last, n, "")
		}
		left := time.Until(deadline)
		if last.retryAfter >= 0 {
			if last.retryAfter > left/2 {
				return failed(last, n, fmt.Sprintf("Retry-After %v exceeds the export budget", last.retryAfter))
			}
			th.hold(last.retryAfter)
			continue
		}
		delay := backoffDelay(n, policy)
		if delay > left/2 {
			return failed(last, n, "backoff exceeds the export budget")
		}
		if !sleepCtx(ctx, delay) {
			return failed(last, n, "canceled")
		}
	}
	return failed(last, policy.maxAttempts, "")
}

func backoffDelay(n int, policy retryPolicy) time.Duration {
	ceiling := policy.backoffBase << (n - 1)
	if ceiling > policy.maxBackoff || ceiling <= 0 {
		ceiling = policy.maxBackoff
	}
	return time.Duration(float64(ceiling) * (0.5 + rand.Float64()/2)) //nolint:gosec // jitter, not security
}

func failed(last attemptResult, attempts int, why string) deliveryResult {
	message := last.message
	if why != "" {
		message = fmt.Sprintf("%s (%s)", message, why)
	}
	return deliveryResult{status: last.status, message: message, attempts: attempts}
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// ParseRetryAfter reads a Retry-After header: integer or fractional seconds, or an HTTP-date. It returns -1 when
// the header is absent or unreadable.
func ParseRetryAfter(value string, now time.Time) time.Duration {
	text := strings.TrimSpace(value)
	if text == "" {
		return -1
	}
	if seconds, err := strconv.ParseFloat(text, 64); err == nil {
		if seconds < 0 || text[0] == '+' || strings.ContainsAny(text, "eEnN") {
			return -1
		}
		return time.Duration(seconds * float64(time.Second))
	}
	when, err := http.ParseTime(text)
	if err != nil {
		return -1
	}
	if d := when.Sub(now); d > 0 {
		return d
	}
	return 0
}
