"""The delivery pipeline: carriers, OTLP envelopes, the bounded batch processor and the exporter."""
