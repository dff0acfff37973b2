package reprise

import "context"

type frameKey struct{}

// frame is what is active in a context: the trace and span a function runs in, and a replay the next root trace
// must become.
type frame struct {
	trace   *traceState
	span    *spanState
	pending *pendingReplay
}

func frameFrom(ctx context.Context) *frame {
	if ctx == nil {
		return nil
	}
	f, _ := ctx.Value(frameKey{}).(*frame)
	return f
}

func withFrame(ctx context.Context, f *frame) context.Context {
	return context.WithValue(ctx, frameKey{}, f)
}
