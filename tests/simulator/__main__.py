# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run the simulator: ``PYTHONPATH=tests python -m simulator [--port N] [--tls CERT KEY]``.

Prints the URL it listens on (first line of standard output), then serves until interrupted.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading

from simulator.core import DEFAULT_API_KEY, Simulator


def main():
    parser = argparse.ArgumentParser(description="Gcore API simulator (127.0.0.1 only)")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default: an ephemeral port)")
    parser.add_argument("--api-key", default=os.environ.get("GCORE_SIM_API_KEY", DEFAULT_API_KEY))
    parser.add_argument("--task-delay", type=float, default=None, help="seconds a cloud task takes")
    parser.add_argument("--tls", nargs=2, metavar=("CERTFILE", "KEYFILE"), help="serve HTTPS with this certificate")
    parser.add_argument("--url-file", help="also write the URL to this file")
    args = parser.parse_args()
    sim = Simulator(api_key=args.api_key)
    if args.task_delay is not None:
        sim.configure(task_delay=args.task_delay)
    certfile, keyfile = args.tls if args.tls else (None, None)
    url = sim.start(port=args.port, certfile=certfile, keyfile=keyfile)
    if args.url_file:
        with open(args.url_file, "w", encoding="utf-8") as handle:
            handle.write(url + "\n")
    print(url, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_args: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    sim.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
