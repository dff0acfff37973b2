package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/reprise/reprise/sdks/go/internal/otlp"
)

// Carrier budgets (docs/sdk-transport.md, "Limits").
const (
	// PerSpanBudget is the largest carrier kept intact when its single-carrier request gzips under the wire target.
	PerSpanBudget = 7_800_000
	// FallbackBudget is what an oversized carrier is trimmed to otherwise.
	FallbackBudget = 2_800_000
	// DecompressedCeiling is the server's limit on a decompressed request.
	DecompressedCeiling = 8_000_000
)

// structuralKeys identify a span or trace and are never trimmed (docs/sdk-transport.md, rule 6).
var structuralKeys = map[string]bool{
	"name": true, "type": true, "function_name": true, "error_source": true, "content_off_by_simulation_plan": true,
	"id": true, "started_at": true, "ended_at": true, "workflow_name": true, "ingestion_type": true,
	"input_source_trace_id": true, "replay_attempt": true,
}

// EscapedBytes is the size of a payload once re-escaped into the carrier's string attribute (transport rule 7).
func EscapedBytes(payload []byte) int {
	return len(otlp.QuoteJSON(string(payload))) - 2
}

type trimCandidate struct {
	container map[string]any
	key, path string
	escaped   int
	raw       int
}

// trimPayload replaces the largest non-structural fields with `<unserializable: too_large_N_bytes>`, largest first,
// until the escaped payload fits budget, and records the trim in `errors` under step `payload_budget` (transport
// rule 6). It returns the new payload and the trimmed paths (none when nothing could or had to be trimmed).
func trimPayload(payload []byte, operation string, budget int) ([]byte, []string) {
	total := EscapedBytes(payload)
	if total <= budget {
		return payload, nil
	}
	decoder := json.NewDecoder(bytes.NewReader(payload))
	decoder.UseNumber()
	var root map[string]any
	if decoder.Decode(&root) != nil {
		return payload, nil
	}
	candidates := collectCandidates(root, operation)
	sort.SliceStable(candidates, func(i, j int) bool { return candidates[i].escaped > candidates[j].escaped })
	var trimmed []string
	for _, c := range candidates {
		if total <= budget {
			break
		}
		placeholder := fmt.Sprintf("<unserializable: too_large_%d_bytes>", c.raw)
		c.container[c.key] = placeholder
		total -= c.escaped - (len(otlp.QuoteJSON(placeholder)) - 2)
		trimmed = append(trimmed, fmt.Sprintf("%s (%d bytes)", c.path, c.raw))
	}
	if len(trimmed) == 0 {
		return payload, nil
	}
	errorsList, _ := root["errors"].([]any)
	root["errors"] = append(errorsList, map[string]any{
		"source": "sdk",
		"step":   "payload_budget",
		"error": fmt.Sprintf("trimmed oversized field(s) to fit the %d-byte carrier budget: %s",
			budget, strings.Join(trimmed, ", ")),
	})
	out, err := MarshalNoEscape(root)
	if err != nil {
		return payload, nil
	}
	return out, trimmed
}

func collectCandidates(root map[string]any, operation string) []trimCandidate {
	var container map[string]any
	prefix := ""
	switch operation {
	case OpExternalSpan:
		rawSpan, _ := root["rawSpan"].(map[string]any)
		container, _ = rawSpan["span_data"].(map[string]any)
		prefix = "rawSpan.span_data."
	case OpExternalTrace:
		container, _ = root["externalTrace"].(map[string]any)
		prefix = "externalTrace."
	default:
		container = root
	}
	var out []trimCandidate
	for key, value := range container {
		if structuralKeys[key] {
			continue
		}
		if operation == OpInternalTrace && key != "result" && key != "inputs" && key != "rawCollector" {
			continue
		}
		encoded, err := MarshalNoEscape(value)
		if err != nil {
			continue
		}
		out = append(out, trimCandidate{
			container: container, key: key, path: prefix + key,
			escaped: EscapedBytes(encoded), raw: len(encoded),
		})
	}
	return out
}

// MarshalNoEscape is json.Marshal without HTML escaping (the SDK's one JSON encoding of payload values).
func MarshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
