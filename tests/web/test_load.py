"""A small burst against the real server (``bitdoku serve`` in its own process), as ``benchmarks/web_load.py``
sends it: a mix of every endpoint and of bad requests from 50 clients, with a health probe beside it."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_burst_gets_no_5xx_and_health_answers_throughout(tmp_path):
    report_path = tmp_path / "load.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--requests", "2000",
                           "--clients", "50", "--server-workers", "1", "--quiet-seconds", "1",
                           "--json", str(report_path)], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(report_path.read_text())
    assert sum(report["statuses"].values()) == 2000 and not report["unexpected"] and not report["transport_errors"]
    assert not any(status.startswith("5") for status in report["statuses"])
    assert {"200", "404", "413", "422"} <= set(report["statuses"])  # the bad requests were sent, and refused
    assert report["health_during"]["probes"] > 0 and report["health_during"]["failed"] == 0
    assert report["listening"] == ["127.0.0.1"]  # bitdoku serve's default address
    assert 0 < report["peak_rss_mb_total"] < 2000
