"""Code only the benchmarks run: ABack's Table 3 (`aback_bench`) and its metrics (`aback_metrics`), the
PII span scorer (`pii_eval`) and leak benchmark (`pii_leak`), and the extraction gold-set scorer
(`extraction_score`). Nothing in `core`, `storage` or `ui` imports it."""
