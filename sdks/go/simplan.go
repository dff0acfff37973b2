package reprise

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Timing of sim plan reads (docs/sdk-transport.md, "Sim plan").
const (
	simPlanTimeout = 5 * time.Second
	simPlanRefresh = time.Minute
	simPlanRetry   = 10 * time.Second
	maxHeld        = 1000
)

type planKind int

const (
	planPending planKind = iota
	planReady
	planUnavailable
)

// planSource reads GET /api/sdk/sim-plan lazily: the first read starts on first use; later reads happen at most
// once a minute after a success and ten seconds after a failure, in the background. A failed refresh keeps the
// last good plan; 404 means an empty plan.
type planSource struct {
	fetch     func(ctx context.Context) (map[string]bool, error)
	onSettled func()

	mu         sync.Mutex
	kind       planKind
	contentOff map[string]bool
	nextRead   time.Time
	inFlight   chan struct{} // closed when the running read finishes; nil when none runs
}

func nodeKey(traceFunctionKey, name string) string { return traceFunctionKey + "\x00" + name }

// state returns the current plan and starts a read when one is due.
func (p *planSource) state() (planKind, map[string]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inFlight == nil && !time.Now().Before(p.nextRead) {
		done := make(chan struct{})
		p.inFlight = done
		go p.read(done)
	}
	return p.kind, p.contentOff
}

// settled returns a channel closed once no read is running.
func (p *planSource) settled() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inFlight == nil {
		done := make(chan struct{})
		close(done)
		return done
	}
	return p.inFlight
}

func (p *planSource) read(done chan struct{}) {
	var nodes map[string]bool
	err := errors.New("sim plan read panicked")
	func() {
		defer func() { _ = recover() }()
		ctx, cancel := context.WithTimeout(context.Background(), simPlanTimeout)
		defer cancel()
		nodes, err = p.fetch(ctx)
	}()
	p.mu.Lock()
	if err == nil {
		p.kind, p.contentOff, p.nextRead = planReady, nodes, time.Now().Add(simPlanRefresh)
	} else {
		if p.kind != planReady {
			p.kind = planUnavailable
		}
		p.nextRead = time.Now().Add(simPlanRetry)
	}
	p.inFlight = nil
	close(done)
	p.mu.Unlock()
	defer func() { _ = recover() }() // this goroutine must never take the application down
	p.onSettled()
}

// fetchSimPlan reads the content-off nodes with a 5 s timeout and Connection: close.
func fetchSimPlan(api *apiClient) func(ctx context.Context) (map[string]bool, error) {
	return func(ctx context.Context) (map[string]bool, error) {
		var body struct {
			Nodes []struct {
				TraceFunctionKey *string `json:"traceFunctionKey"`
				Name             *string `json:"name"`
				CaptureContent   *bool   `json:"captureContent"`
			} `json:"nodes"`
		}
		err := api.call(ctx, "GET", "/sim-plan", nil, &body, callOptions{timeout: simPlanTimeout, headers: map[string]string{"Connection": "close"}})
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Status == 404 {
			return map[string]bool{}, nil
		}
		if err != nil {
			return nil, err
		}
		if body.Nodes == nil {
			return nil, errors.New("sim plan answer without nodes")
		}
		off := map[string]bool{}
		for _, n := range body.Nodes {
			if n.TraceFunctionKey != nil && n.Name != nil && n.CaptureContent != nil && !*n.CaptureContent {
				off[nodeKey(*n.TraceFunctionKey, *n.Name)] = true
			}
		}
		return off, nil
	}
}
