package reprise

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/reprise/reprise/sdks/go/internal/transport"
)

// Timing of sim plan reads (docs/api.md, GET /api/sdk/sim-plan).
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

// spanSubmission is a finished span on its way to the transport.
type spanSubmission struct {
	build            func(contentOff bool) *transport.Carrier
	traceFunctionKey string
	spanName         string
	isRoot           bool
	hasError         bool
	sent             func(sent bool)
}

type heldItem struct {
	span    *spanSubmission
	release func()
}

// gate applies the sim plan to spans before they reach the transport, in submission order. While the first read is
// pending, spans and the completions behind them are held (up to 1,000 items), so a completion always counts the
// spans actually sent. Lock order: gate.mu, then a trace's mu, then the transport's.
type gate struct {
	plan    *planSource // nil when the sim plan is disabled
	deliver func(*transport.Carrier) bool

	mu     sync.Mutex
	held   []heldItem
	forced bool
}

func newGate(plan *planSource, deliver func(*transport.Carrier) bool) *gate {
	g := &gate{plan: plan, deliver: deliver}
	if plan != nil {
		plan.onSettled = func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.forced = false
			g.releaseLocked()
		}
	}
	return g
}

// submitSpan sends, strips or skips a span; sub.sent learns whether a carrier was submitted.
func (g *gate) submitSpan(sub *spanSubmission) {
	g.mu.Lock()
	defer g.mu.Unlock()
	kind, off := g.stateLocked()
	if kind == planPending || len(g.held) > 0 {
		g.holdLocked(heldItem{span: sub})
		return
	}
	sub.sent(g.process(sub, kind, off))
}

// afterPending runs release once every span submitted before it was decided.
func (g *gate) afterPending(release func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.held) > 0 {
		g.holdLocked(heldItem{release: release})
		return
	}
	release()
}

// drain waits until nothing is held, or ctx ends. It reports whether the gate is empty.
func (g *gate) drain(ctx context.Context) bool {
	for {
		g.mu.Lock()
		g.releaseLocked()
		empty := len(g.held) == 0
		g.mu.Unlock()
		if empty || g.plan == nil {
			return empty
		}
		select {
		case <-g.plan.settled():
		case <-ctx.Done():
			return false
		}
	}
}

func (g *gate) stateLocked() (planKind, map[string]bool) {
	if g.plan == nil {
		return planReady, nil
	}
	kind, off := g.plan.state()
	if g.forced && kind == planPending {
		return planUnavailable, nil
	}
	return kind, off
}

func (g *gate) holdLocked(item heldItem) {
	g.held = append(g.held, item)
	if len(g.held) > maxHeld {
		// Memory stays bounded: decide everything held as if the plan were unavailable.
		g.forced = true
		g.releaseLocked()
	}
}

func (g *gate) releaseLocked() {
	if len(g.held) == 0 {
		return
	}
	kind, off := g.stateLocked()
	if kind == planPending {
		return
	}
	items := g.held
	g.held = nil
	for _, item := range items {
		if item.span != nil {
			item.span.sent(g.process(item.span, kind, off))
		} else {
			item.release()
		}
	}
}

// process applies the plan to one span (docs/api.md, sim plan rule 2): a content-off node is sent without input,
// output and prompt and flagged content_off_by_simulation_plan (the server's span tree then omits it unless it
// recorded an error); while the plan cannot be read, children are sent without content.
func (g *gate) process(sub *spanSubmission, kind planKind, off map[string]bool) bool {
	contentOff := (kind == planReady && off[nodeKey(sub.traceFunctionKey, sub.spanName)]) ||
		(kind == planUnavailable && !sub.isRoot)
	carrier := sub.build(contentOff)
	if carrier == nil {
		return false
	}
	return g.deliver(carrier)
}
