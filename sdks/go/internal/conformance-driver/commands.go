package main

import (
	"context"
	"encoding/json"
	"time"

	reprise "github.com/reprise/reprise/sdks/go"
)

var commands = map[string]func(args []byte) (any, error){
	"trace":          traceCmd,
	"flush":          flushCmd,
	"close":          closeCmd,
	"updateTrace":    updateTraceCmd,
	"seedTrace":      seedTraceCmd,
	"lookupFunction": lookupFunctionCmd,
	"functionTrace":  functionTraceCmd,
	"replay":         replayCmd,
	"sleep":          sleepCmd,
}

func traceCmd(raw []byte) (any, error) {
	var args struct {
		TraceFunctionKey string   `json:"traceFunctionKey"`
		Tree             treeSpan `json:"tree"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	traceID := runTree(background(), sdk(), args.TraceFunctionKey, &args.Tree)
	return map[string]string{"traceId": traceID}, nil
}

func flushCmd(raw []byte) (any, error) {
	var args struct {
		TimeoutMs *int `json:"timeoutMs"`
	}
	_ = json.Unmarshal(raw, &args)
	timeout := 30 * time.Second
	if args.TimeoutMs != nil {
		timeout = time.Duration(*args.TimeoutMs) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(background(), timeout)
	defer cancel()
	return sdk().FlushTraces(ctx), nil
}

func closeCmd([]byte) (any, error) {
	ctx, cancel := context.WithTimeout(background(), 30*time.Second)
	defer cancel()
	_ = sdk().Close(ctx) // a failed final flush is the transport's business, as flush reports it
	return nil, nil
}

func updateTraceCmd(raw []byte) (any, error) {
	var args struct {
		TraceID        string           `json:"traceId"`
		SetName        *string          `json:"setName"`
		MergeMetadata  map[string]any   `json:"mergeMetadata"`
		AppendContexts []map[string]any `json:"appendContexts"`
		SetSessionID   *string          `json:"setSessionId"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	return nil, sdk().UpdateTrace(background(), args.TraceID, reprise.TraceUpdate{
		Name: args.SetName, MergeMetadata: args.MergeMetadata, AppendContexts: args.AppendContexts, SessionID: args.SetSessionID,
	})
}

func seedTraceCmd(raw []byte) (any, error) {
	var args struct {
		TraceFunctionKey string          `json:"traceFunctionKey"`
		Input            json.RawMessage `json:"input"`
		Output           json.RawMessage `json:"output"`
		Name             string          `json:"name"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	id, err := sdk().SeedTrace(background(), reprise.Seed{
		TraceFunctionKey: args.TraceFunctionKey, Input: orNull(args.Input), Output: orNull(args.Output), Name: args.Name,
	})
	if err != nil && id == "" {
		return nil, err
	}
	return map[string]string{"traceId": id}, nil
}

func lookupFunctionCmd(raw []byte) (any, error) {
	var args struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	fn, err := sdk().LookupFunction(background(), args.Name)
	if err != nil {
		return nil, err
	}
	return map[string]string{"id": fn.ID}, nil
}

func functionTraceCmd(raw []byte) (any, error) {
	var args struct {
		Name   string          `json:"name"`
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	fn, err := sdk().LookupFunction(background(), args.Name)
	if err != nil {
		return nil, err
	}
	var inputs map[string]any
	if json.Unmarshal(args.Input, &inputs) != nil && len(args.Input) > 0 {
		inputs = map[string]any{"input": args.Input}
	}
	return nil, sdk().RecordFunctionTrace(fn.ID, reprise.FunctionExecution{Inputs: inputs, Result: orNull(args.Output)})
}

func replayCmd(raw []byte) (any, error) {
	var args struct {
		TraceFunctionKey string   `json:"traceFunctionKey"`
		Limit            int      `json:"limit"`
		TraceIDs         []string `json:"traceIds"`
		DatasetIDs       []string `json:"datasetIds"`
		Name             string   `json:"name"`
		BarrierTimeoutMs int      `json:"barrierTimeoutMs"`
		Tree             treeSpan `json:"tree"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	client := sdk()
	fn := func(ctx context.Context, input json.RawMessage) (any, error) {
		return replayTree(ctx, client, args.TraceFunctionKey, &args.Tree, input)
	}
	result, err := client.Replay(background(), args.TraceFunctionKey, fn, reprise.ReplayOptions{
		Limit: args.Limit, TraceIDs: args.TraceIDs, DatasetIDs: args.DatasetIDs, Name: args.Name,
		BarrierTimeout: time.Duration(args.BarrierTimeoutMs) * time.Millisecond,
	})
	if err != nil {
		return nil, err
	}
	items := make([]map[string]any, 0, len(result.Items))
	for _, item := range result.Items {
		entry := map[string]any{
			"originalTraceId": item.OriginalTraceID,
			"traceId":         firstNonEmpty(item.ServerTraceID, item.ReplayTraceID),
			"output":          item.Output,
			"outline":         item.Outline,
		}
		if item.Err != nil {
			entry["error"] = item.Err.Error()
		}
		items = append(items, entry)
	}
	return map[string]any{"testRunId": result.TestRunID, "items": items}, nil
}

func sleepCmd(raw []byte) (any, error) {
	var args struct {
		Ms int `json:"ms"`
	}
	_ = json.Unmarshal(raw, &args)
	time.Sleep(time.Duration(args.Ms) * time.Millisecond)
	return nil, nil
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
