package transport

import (
	"bytes"
	"compress/gzip"
)

// GzipThreshold is the body size from which requests are gzipped when that makes them smaller (docs/sdk-transport.md,
// "Limits").
const GzipThreshold = 8192

// maybeGzip gzips a body of GzipThreshold bytes or more when that makes it smaller. Best-effort: on failure, or
// when compression is off, the original body is returned.
func maybeGzip(body []byte, enabled bool) (out []byte, gzipped bool) {
	if !enabled || len(body) < GzipThreshold {
		return body, false
	}
	var b bytes.Buffer
	b.Grow(len(body) / 4)
	w := gzip.NewWriter(&b)
	if _, err := w.Write(body); err != nil {
		return body, false
	}
	if err := w.Close(); err != nil {
		return body, false
	}
	if b.Len() >= len(body) {
		return body, false
	}
	return b.Bytes(), true
}
