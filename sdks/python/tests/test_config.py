import unittest

from reprise import DEFAULT_SERVICE_URL, resolve_config


class ResolveConfigTest(unittest.TestCase):
    def test_defaults(self):
        config, warnings = resolve_config(env={})
        self.assertEqual(config.api_key, "")
        self.assertEqual(config.service_url, DEFAULT_SERVICE_URL)
        self.assertEqual(config.mode.kind, "direct")
        self.assertEqual(config.mode.url, "http://localhost:3000/api/sdk/otel/v1/traces")
        self.assertEqual(config.mode.encoding, "json")
        self.assertEqual(config.max_request_bytes, 3_000_000)
        self.assertEqual(config.export_concurrency, 32)
        self.assertTrue(config.compression)
        self.assertTrue(config.sim_plan_enabled)
        self.assertEqual(config.tuning.max_queue_size, 8192)
        self.assertEqual(config.tuning.max_export_batch_size, 512)
        self.assertEqual(config.tuning.scheduled_delay, 5.0)
        self.assertEqual(config.tuning.request_timeout, 30.0)
        self.assertEqual(warnings, [])

    def test_environment_then_argument(self):
        env = {"REPRISE_API_KEY": " rp_env ", "REPRISE_URL": "http://r.example/", "REPRISE_DISABLE_COMPRESSION": "1",
               "REPRISE_DISABLE_SIM_PLAN": "yes", "REPRISE_OTEL_MAX_REQUEST_BYTES": "1000",
               "REPRISE_OTEL_EXPORT_CONCURRENCY": "4"}
        config, _ = resolve_config(env=env)
        self.assertEqual(config.api_key, "rp_env")
        self.assertEqual(config.service_url, "http://r.example")
        self.assertFalse(config.compression)
        self.assertFalse(config.sim_plan_enabled)
        self.assertEqual((config.max_request_bytes, config.export_concurrency), (1000, 4))
        config, _ = resolve_config(api_key="rp_arg", service_url="http://arg", export_concurrency=8,
                                   disable_compression=False, env=env)
        self.assertEqual((config.api_key, config.service_url, config.export_concurrency), ("rp_arg", "http://arg", 8))
        self.assertTrue(config.compression)

    def test_collector_mode_appends_v1_traces_once(self):
        config, _ = resolve_config(env={"REPRISE_OTEL_EXPORTER_ENDPOINT": "http://collector:4318/"})
        self.assertEqual((config.mode.kind, config.mode.url, config.mode.encoding),
                         ("collector", "http://collector:4318/v1/traces", "protobuf"))
        self.assertEqual(config.tuning.max_export_batch_size, 32)
        config, _ = resolve_config(otel_exporter_endpoint="http://c/v1/traces", env={})
        self.assertEqual(config.mode.url, "http://c/v1/traces")

    def test_invalid_limits_warn_and_fall_back(self):
        for raw in ["0", "3000001", "abc", "-5", "1.5"]:
            config, warnings = resolve_config(env={"REPRISE_OTEL_MAX_REQUEST_BYTES": raw,
                                                   "REPRISE_OTEL_EXPORT_CONCURRENCY": raw})
            self.assertEqual(config.max_request_bytes, 3_000_000)
            self.assertEqual(config.export_concurrency, 32)
            self.assertEqual(len(warnings), 2, raw)
            self.assertIn("REPRISE_OTEL_MAX_REQUEST_BYTES", warnings[0].message)
        config, warnings = resolve_config(export_concurrency=65, env={})
        self.assertEqual((config.export_concurrency, len(warnings)), (32, 1))

    def test_empty_values_are_unset(self):
        config, warnings = resolve_config(env={"REPRISE_URL": " ", "REPRISE_OTEL_EXPORTER_ENDPOINT": "",
                                               "REPRISE_DISABLE_COMPRESSION": ""})
        self.assertEqual(config.service_url, DEFAULT_SERVICE_URL)
        self.assertEqual(config.mode.kind, "direct")
        self.assertTrue(config.compression)
        self.assertEqual(warnings, [])


if __name__ == "__main__":
    unittest.main()
