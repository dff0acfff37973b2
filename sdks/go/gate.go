package reprise

import (
	"context"
	"sync"

	"github.com/reprise/reprise/sdks/go/internal/transport"
)

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

// process applies the plan to one span (docs/sdk-transport.md, "Sim plan"): a content-off node is sent without input,
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
